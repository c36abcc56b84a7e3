package io.derive.memory;

import io.derive.engine.api.DatabaseConfig;
import io.derive.engine.contract.IndexContract;

class MemoryHostIndexTest extends IndexContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-index");
    }
}
