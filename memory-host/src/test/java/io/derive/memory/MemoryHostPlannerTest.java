package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.PlannerContract;

class MemoryHostPlannerTest extends PlannerContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-planner");
    }
}
