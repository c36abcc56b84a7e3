package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.SqliteCorpusConformanceContract;

class DerbyHostSqliteCorpusConformanceTest extends SqliteCorpusConformanceContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-sqlite-corpus-conformance");
    }
}
