package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.IntrospectionContract;

class DerbyHostIntrospectionTest extends IntrospectionContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-introspection");
    }
}
