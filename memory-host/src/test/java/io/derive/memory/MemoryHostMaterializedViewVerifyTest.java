package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewVerifyContract;

class MemoryHostMaterializedViewVerifyTest extends MaterializedViewVerifyContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-mv-verify");
    }
}
