package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.DerivedRowConstraintContract;

class MemoryHostDerivedRowConstraintTest extends DerivedRowConstraintContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-derived-constraints");
    }
}
