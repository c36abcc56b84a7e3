package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.SqliteCorpusConformanceContract;

class MemoryHostSqliteCorpusConformanceTest extends SqliteCorpusConformanceContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-sqlite-corpus");
    }
}
