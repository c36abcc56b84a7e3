package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.RowLockContract;

class DerbyHostRowLockTest extends RowLockContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-row-locks");
    }
}
