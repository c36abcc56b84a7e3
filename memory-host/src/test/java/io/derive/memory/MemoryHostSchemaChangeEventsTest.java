package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.SchemaChangeEventsContract;

class MemoryHostSchemaChangeEventsTest extends SchemaChangeEventsContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-schema-change-events");
    }
}
