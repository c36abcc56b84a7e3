package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.MaintainedStatementFormsContract;

class MemoryHostMaintainedStatementFormsTest extends MaintainedStatementFormsContract {
    @Override
    protected DatabaseConfig config() {
        return DatabaseConfig.named("memory-maintained-forms");
    }
}
