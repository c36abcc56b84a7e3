package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.CoveringStructureContract;

class DerbyHostCoveringStructureTest extends CoveringStructureContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-covering-structures");
    }
}
