package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.StalenessContract;

class DerbyHostStalenessTest extends StalenessContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-staleness");
    }
}
