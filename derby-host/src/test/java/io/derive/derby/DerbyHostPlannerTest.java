package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.PlannerContract;

class DerbyHostPlannerTest extends PlannerContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-planner");
    }
}
