package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.TableAndViewTagsContract;

class MemoryHostTableAndViewTagsTest extends TableAndViewTagsContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-table-view-tags");
    }
}
