package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.ScalarFunctionContract;

class DerbyHostScalarFunctionTest extends ScalarFunctionContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-scalar-function");
    }
}
