package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.TemporalTypeContract;

class DerbyHostTemporalTypeTest extends TemporalTypeContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-temporal-type");
    }
}
