package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ScalarFunctionContract;

class MemoryHostScalarFunctionTest extends ScalarFunctionContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-scalarfunction");
    }
}
