package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ConstraintContract;

class MemoryHostConstraintTest extends ConstraintContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-constraint");
    }
}
