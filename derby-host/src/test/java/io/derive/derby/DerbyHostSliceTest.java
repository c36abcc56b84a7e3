package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewSliceContract;

class DerbyHostSliceTest extends MaterializedViewSliceContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-slice");
    }
}
