package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.QueryContract;

class MemoryHostQueryTest extends QueryContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-query");
    }
}
