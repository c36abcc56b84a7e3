package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.scenario.differential.DifferentialSuite;

class DifferentialTest extends DifferentialSuite {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-differential");
    }
}
