package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ConcurrencyContract;

class MemoryHostConcurrencyTest extends ConcurrencyContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-concurrency");
    }
}
