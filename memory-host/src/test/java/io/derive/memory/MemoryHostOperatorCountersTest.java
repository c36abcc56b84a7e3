package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.OperatorCountersContract;

class MemoryHostOperatorCountersTest extends OperatorCountersContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-operator-counters");
    }
}
