package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.IndexContract;

class MemoryHostIndexTest extends IndexContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-index");
    }
}
