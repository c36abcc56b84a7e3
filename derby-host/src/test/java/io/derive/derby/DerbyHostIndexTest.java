package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.IndexContract;

class DerbyHostIndexTest extends IndexContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-index");
    }
}
