package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ConcurrencyContract;

class DerbyHostConcurrencyTest extends ConcurrencyContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-concurrency");
    }

    /** Views on the memory host over Derby sources: one commit spans both hosts. */
    @Override
    protected String otherHost() {
        return "memory";
    }
}
