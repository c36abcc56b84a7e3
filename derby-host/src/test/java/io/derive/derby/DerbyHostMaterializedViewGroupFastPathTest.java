package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewGroupFastPathContract;

class DerbyHostMaterializedViewGroupFastPathTest extends MaterializedViewGroupFastPathContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-mv-group-fast-path");
    }
}
