package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.CoveringStructureContract;

class MemoryHostCoveringStructureTest extends CoveringStructureContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-covering-structures");
    }
}
