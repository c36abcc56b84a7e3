package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ChunkedPerRowFinishContract;

class DerbyHostChunkedPerRowFinishTest extends ChunkedPerRowFinishContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-per-row-finish");
    }
}
