package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.QueryContract;

class DerbyHostQueryTest extends QueryContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-query");
    }
}
