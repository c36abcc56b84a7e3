package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ChunkedPerRowFinishContract;

class MemoryHostChunkedPerRowFinishTest extends ChunkedPerRowFinishContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-per-row-finish");
    }
}
