package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewPragmasContract;

class MemoryHostMaterializedViewPragmasTest extends MaterializedViewPragmasContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-mv-pragmas");
    }
}
