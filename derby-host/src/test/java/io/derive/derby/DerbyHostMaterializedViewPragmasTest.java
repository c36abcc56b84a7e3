package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewPragmasContract;

class DerbyHostMaterializedViewPragmasTest extends MaterializedViewPragmasContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-materialized-view-pragmas");
    }
}
