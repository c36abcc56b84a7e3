package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.scenario.BadInputSuite;

class BadInputCorpusTest extends BadInputSuite {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-bad-input");
    }
}
