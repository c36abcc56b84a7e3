package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewArmsContract;

class MemoryHostMaterializedViewArmsTest extends MaterializedViewArmsContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-mv-arms");
    }
}
