package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ChunkedAttachContract;

class DerbyHostChunkedAttachTest extends ChunkedAttachContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-chunked-attach");
    }
}
