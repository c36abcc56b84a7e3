package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.BagTableContract;

class MemoryHostBagTableTest extends BagTableContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-bag-table");
    }
}
