package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.RehydrateStatementContract;

class MemoryHostRehydrateStatementTest extends RehydrateStatementContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-rehydrate-statement");
    }
}
