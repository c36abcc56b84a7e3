package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.AnalyzeContract;

class MemoryHostAnalyzeTest extends AnalyzeContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-analyze");
    }
}
