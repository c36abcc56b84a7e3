package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.RefreshScheduleContract;

class DerbyHostRefreshScheduleTest extends RefreshScheduleContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-refresh-schedule");
    }
}
