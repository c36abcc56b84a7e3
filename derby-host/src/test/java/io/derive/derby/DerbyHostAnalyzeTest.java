package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.AnalyzeContract;

class DerbyHostAnalyzeTest extends AnalyzeContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-analyze");
    }
}
