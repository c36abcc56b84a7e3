package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ConstraintContract;

class DerbyHostConstraintTest extends ConstraintContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-constraint");
    }
}
