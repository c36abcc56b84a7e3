package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaintainedTableContract;

class MemoryHostMaintainedTableTest extends MaintainedTableContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-maintained-table");
    }
}
