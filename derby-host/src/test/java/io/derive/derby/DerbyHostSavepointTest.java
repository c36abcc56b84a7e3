package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.SavepointContract;

class DerbyHostSavepointTest extends SavepointContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-savepoint");
    }
}
