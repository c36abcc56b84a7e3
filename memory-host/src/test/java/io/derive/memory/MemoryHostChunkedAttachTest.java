package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ChunkedAttachContract;

class MemoryHostChunkedAttachTest extends ChunkedAttachContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-chunked-attach");
    }
}
