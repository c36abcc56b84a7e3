package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.RowLockContract;

class MemoryHostRowLockTest extends RowLockContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-row-locks");
    }
}
