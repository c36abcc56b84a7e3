package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.BagTableContract;

class DerbyHostBagTableTest extends BagTableContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-bag-table");
    }
}
