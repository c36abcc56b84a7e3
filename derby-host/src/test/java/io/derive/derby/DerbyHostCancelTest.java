package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.CancelContract;

class DerbyHostCancelTest extends CancelContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-cancel");
    }
}
