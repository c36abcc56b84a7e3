package io.derive.memory;

import io.derive.engine.contract.BackingHostContract;
import io.derive.engine.spi.TableModule;

class MemoryBackingHostTest extends BackingHostContract {
    @Override
    protected TableModule module() {
        return new MemoryTableModule();
    }
}
