package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.TemporalTypeContract;

class MemoryHostTemporalTypeTest extends TemporalTypeContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-temporaltype");
    }
}
