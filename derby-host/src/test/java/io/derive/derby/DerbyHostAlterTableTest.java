package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.AlterTableContract;

class DerbyHostAlterTableTest extends AlterTableContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-alter-table");
    }
}
