package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewArmsContract;

class DerbyHostMaterializedViewArmsTest extends MaterializedViewArmsContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-materialized-view-arms");
    }
}
