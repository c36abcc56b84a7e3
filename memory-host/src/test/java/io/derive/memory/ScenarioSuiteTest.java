package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.scenario.ScenarioSuite;

class ScenarioSuiteTest extends ScenarioSuite {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-scenarios");
    }
}
