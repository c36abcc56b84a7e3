package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewTagsContract;

class DerbyHostMaterializedViewTagsTest extends MaterializedViewTagsContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-materialized-view-tags");
    }
}
