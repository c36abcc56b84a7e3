package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.AlterTableConstraintContract;

class DerbyHostAlterTableConstraintTest extends AlterTableConstraintContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-alter-table-constraint");
    }
}
