package io.derive.memory;

import io.derive.engine.scenario.heap.StatementHeapLimitSuite;

class MemoryHostStatementHeapLimitTest extends StatementHeapLimitSuite {
    @Override
    protected String host() {
        return "memory";
    }
}
