package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.SchemaChangeEventsContract;

class DerbyHostSchemaChangeEventsTest extends SchemaChangeEventsContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-schema-change-events");
    }
}
