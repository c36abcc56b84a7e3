package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.DefaultColumnNullabilityContract;

class DerbyHostDefaultColumnNullabilityTest extends DefaultColumnNullabilityContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-default-column-nullability");
    }
}
