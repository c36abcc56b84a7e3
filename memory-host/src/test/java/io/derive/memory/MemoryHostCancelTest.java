package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.CancelContract;

class MemoryHostCancelTest extends CancelContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-cancel");
    }
}
