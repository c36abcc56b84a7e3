package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.SqlSliceContract;

class MemoryHostSqlTest extends SqlSliceContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-sql");
    }
}
