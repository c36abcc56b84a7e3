package io.derive.derby;

import io.derive.engine.scenario.heap.StatementHeapLimitSuite;

class DerbyHostStatementHeapLimitTest extends StatementHeapLimitSuite {
    @Override
    protected String host() {
        return "derby";
    }
}
