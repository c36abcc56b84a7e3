package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.StatementTextReuseContract;

class DerbyHostStatementTextReuseTest extends StatementTextReuseContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-statement-text-reuse");
    }
}
