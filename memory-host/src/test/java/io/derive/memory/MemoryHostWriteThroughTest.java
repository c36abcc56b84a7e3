package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.WriteThroughContract;

class MemoryHostWriteThroughTest extends WriteThroughContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-write-through");
    }
}
