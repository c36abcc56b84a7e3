package io.derive.derby;

import io.derive.engine.contract.BackingHostContract;
import io.derive.engine.spi.TableModule;

class DerbyBackingHostTest extends BackingHostContract {
    @Override
    protected TableModule module() {
        return new DerbyTableModule();
    }
}
