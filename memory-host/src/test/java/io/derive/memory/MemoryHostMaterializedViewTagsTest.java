package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewTagsContract;

class MemoryHostMaterializedViewTagsTest extends MaterializedViewTagsContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-mv-tags");
    }
}
