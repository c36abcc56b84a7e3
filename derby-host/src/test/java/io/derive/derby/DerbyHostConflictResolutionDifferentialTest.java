package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ConflictResolutionDifferentialContract;

class DerbyHostConflictResolutionDifferentialTest extends ConflictResolutionDifferentialContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-conflict-resolution");
    }
}
