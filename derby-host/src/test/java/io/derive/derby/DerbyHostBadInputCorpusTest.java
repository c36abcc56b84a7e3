package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.scenario.BadInputSuite;

class DerbyHostBadInputCorpusTest extends BadInputSuite {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-bad-input");
    }
}
