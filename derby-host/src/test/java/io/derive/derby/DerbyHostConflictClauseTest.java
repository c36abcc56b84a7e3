package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ConflictClauseContract;

class DerbyHostConflictClauseTest extends ConflictClauseContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-conflict-clause");
    }
}
