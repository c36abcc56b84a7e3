package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ForeignKeyContract;

class DerbyHostForeignKeyTest extends ForeignKeyContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-foreign-key");
    }
}
