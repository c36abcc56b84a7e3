package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ConcurrencyContract;

class DerbyHostConcurrencyTest extends ConcurrencyContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-concurrency");
    }

    /** Seen on this host at about one read in 1,500 (issue 15): not yet found. */
    @Override
    protected boolean joinViewsReadAtOneCommit() {
        return false;
    }
}
