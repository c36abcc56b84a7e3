package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.scenario.ScenarioSuite;

class DerbyHostScenarioSuiteTest extends ScenarioSuite {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-scenarios");
    }
}
