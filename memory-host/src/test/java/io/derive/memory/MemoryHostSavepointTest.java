package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.SavepointContract;

class MemoryHostSavepointTest extends SavepointContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-savepoint");
    }
}
