package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.StatementKindContract;

class MemoryHostStatementKindTest extends StatementKindContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-statement-kind");
    }
}
