package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.DefaultColumnNullabilityContract;

class MemoryHostDefaultColumnNullabilityTest extends DefaultColumnNullabilityContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-default-column-nullability");
    }
}
