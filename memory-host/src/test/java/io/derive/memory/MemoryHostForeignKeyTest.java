package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ForeignKeyContract;

class MemoryHostForeignKeyTest extends ForeignKeyContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-foreignkey");
    }
}
