package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.StatementTextReuseContract;

class MemoryHostStatementTextReuseTest extends StatementTextReuseContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-statement-text-reuse");
    }
}
