package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ConflictClauseContract;

class MemoryHostConflictClauseTest extends ConflictClauseContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-conflictclause");
    }
}
