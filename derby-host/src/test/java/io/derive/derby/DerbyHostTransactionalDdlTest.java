package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.TransactionalDdlContract;

class DerbyHostTransactionalDdlTest extends TransactionalDdlContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-transactional-ddl");
    }
}
