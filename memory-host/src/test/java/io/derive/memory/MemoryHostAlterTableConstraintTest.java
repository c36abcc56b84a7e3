package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.AlterTableConstraintContract;

class MemoryHostAlterTableConstraintTest extends AlterTableConstraintContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-alter-constraint");
    }
}
