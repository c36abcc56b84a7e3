package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.AlterTableContract;

class MemoryHostAlterTableTest extends AlterTableContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-alter-table");
    }
}
