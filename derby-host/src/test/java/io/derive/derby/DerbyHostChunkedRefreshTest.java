package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ChunkedRefreshContract;

class DerbyHostChunkedRefreshTest extends ChunkedRefreshContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-chunked-refresh");
    }
}
