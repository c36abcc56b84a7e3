package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaintainedTableContract;

class DerbyHostMaintainedTableTest extends MaintainedTableContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-maintained-table");
    }
}
