package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.RefreshScheduleContract;

class MemoryHostRefreshScheduleTest extends RefreshScheduleContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-refresh-schedule");
    }
}
