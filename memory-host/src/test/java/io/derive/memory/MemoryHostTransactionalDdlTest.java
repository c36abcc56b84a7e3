package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.TransactionalDdlContract;

class MemoryHostTransactionalDdlTest extends TransactionalDdlContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-transactional-ddl");
    }
}
