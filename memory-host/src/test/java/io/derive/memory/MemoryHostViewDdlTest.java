package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ViewDdlContract;

class MemoryHostViewDdlTest extends ViewDdlContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-view-ddl");
    }
}
