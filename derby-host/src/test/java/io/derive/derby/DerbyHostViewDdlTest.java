package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ViewDdlContract;

class DerbyHostViewDdlTest extends ViewDdlContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-view-ddl");
    }
}
