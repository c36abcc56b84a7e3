package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.scenario.differential.DifferentialSuite;

class DerbyHostDifferentialTest extends DifferentialSuite {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-differential");
    }
}
