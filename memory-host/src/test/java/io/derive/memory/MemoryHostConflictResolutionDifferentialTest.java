package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ConflictResolutionDifferentialContract;

class MemoryHostConflictResolutionDifferentialTest extends ConflictResolutionDifferentialContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-conflict-resolution");
    }
}
