package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.SqlSliceContract;

class DerbyHostSqlTest extends SqlSliceContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-sql");
    }
}
