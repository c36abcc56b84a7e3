package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaterializedViewSliceContract;

class MemoryHostSliceTest extends MaterializedViewSliceContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-slice");
    }
}
