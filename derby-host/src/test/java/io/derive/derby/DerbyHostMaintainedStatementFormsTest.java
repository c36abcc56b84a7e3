package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaintainedStatementFormsContract;

class DerbyHostMaintainedStatementFormsTest extends MaintainedStatementFormsContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-maintained-statement-forms");
    }
}
