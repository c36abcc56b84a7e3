package io.derive.memory;

import io.derive.engine.scenario.MutatedStatementsSuite;

class MemoryHostMutatedStatementsTest extends MutatedStatementsSuite {
    @Override
    protected String host() {
        return "memory";
    }
}
