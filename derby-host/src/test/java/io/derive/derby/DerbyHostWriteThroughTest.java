package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.WriteThroughContract;

class DerbyHostWriteThroughTest extends WriteThroughContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-write-through");
    }
}
