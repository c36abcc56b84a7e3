package io.derive.derby;

import io.derive.engine.api.DeriveException;
import io.derive.engine.contract.BackingHostContract;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.SessionResources;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DerbyBackingHostTest extends BackingHostContract {
    @Override
    protected TableModule module() {
        return new DerbyTableModule();
    }

    /** The engine's knowledge spares the read; Derby's update counts still check it. */
    @Test
    void aKnownInsertOfAKeyDerbyHoldsFailsTheFlushAndTheRowStaysAsItWas() {
        TableModule module = module();
        try (SessionResources session = new SessionResources("known change")) {
            HostedTable table = module.create(new TableShape("main", "m", List.of(
                    new TableShape.Column("k", SqlType.INTEGER, Collation.BINARY, true),
                    new TableShape.Column("v", SqlType.INTEGER, Collation.BINARY, false)),
                    List.of(new TableShape.KeyPart(0, false))), List.of());
            BackingHost host = table.backingHost().orElseThrow();
            TableConnection first = host.connect(session);
            host.applyMaintenance(first, List.of(new MaintenanceOp.Upsert(new Object[] {1L, 1L})));
            first.prepare();
            first.commit();

            TableConnection wrong = host.connect(session);
            host.applyMaintenance(wrong, List.of(new MaintenanceOp.Change(null, new Object[] {1L, 2L})));
            assertThatThrownBy(wrong::prepare).isInstanceOf(DeriveException.class)
                    .hasMessageContaining("the flush of table main.m found Derby out of step with the engine")
                    .hasMessageContaining("already there");
            wrong.rollback();

            TableConnection reader = host.connect(session);
            assertThat(reader.get(new Object[] {1L})).hasValueSatisfying(row -> assertThat(row).containsExactly(1L, 1L));
        } finally {
            module.close();
        }
    }
}
