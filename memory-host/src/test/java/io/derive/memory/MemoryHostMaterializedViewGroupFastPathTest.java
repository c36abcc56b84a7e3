package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewGroupFastPathContract;

class MemoryHostMaterializedViewGroupFastPathTest extends MaterializedViewGroupFastPathContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-mv-group-fast-path");
    }
}
