package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewVerifyContract;

class DerbyHostMaterializedViewVerifyTest extends MaterializedViewVerifyContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-mv-verify");
    }
}
