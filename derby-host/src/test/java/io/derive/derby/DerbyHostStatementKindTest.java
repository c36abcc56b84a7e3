package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.StatementKindContract;

class DerbyHostStatementKindTest extends StatementKindContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-statement-kind");
    }
}
