package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.DerivedRowConstraintContract;

class DerbyHostDerivedRowConstraintTest extends DerivedRowConstraintContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-derived-row-constraint");
    }
}
