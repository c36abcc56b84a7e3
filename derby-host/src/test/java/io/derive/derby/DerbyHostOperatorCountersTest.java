package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.OperatorCountersContract;

class DerbyHostOperatorCountersTest extends OperatorCountersContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-operator-counters");
    }
}
