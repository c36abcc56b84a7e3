package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.StalenessContract;

class MemoryHostStalenessTest extends StalenessContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-staleness");
    }
}
