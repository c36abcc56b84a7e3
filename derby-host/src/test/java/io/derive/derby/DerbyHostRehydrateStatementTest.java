package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.RehydrateStatementContract;

class DerbyHostRehydrateStatementTest extends RehydrateStatementContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-rehydrate-statement");
    }
}
