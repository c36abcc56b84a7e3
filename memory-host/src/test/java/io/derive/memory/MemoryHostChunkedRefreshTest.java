package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ChunkedRefreshContract;

class MemoryHostChunkedRefreshTest extends ChunkedRefreshContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-chunked-refresh");
    }
}
