package io.derive.derby;

import io.derive.engine.scenario.MutatedStatementsSuite;

class DerbyHostMutatedStatementsTest extends MutatedStatementsSuite {
    @Override
    protected String host() {
        return "derby";
    }
}
