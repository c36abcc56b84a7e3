package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.IntrospectionContract;

class MemoryHostIntrospectionTest extends IntrospectionContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-introspection");
    }
}
