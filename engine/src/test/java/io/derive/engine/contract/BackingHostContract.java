package io.derive.engine.contract;

import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.BackingRowChange;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.SessionResources;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The backing-host capability through the SPI (semantics §7): change reports are exact (MV-016),
 * maintenance stays pending until commit, {@code replaceContents} is all or nothing. A host
 * module runs it with a subclass giving its {@link #module()}.
 */
public abstract class BackingHostContract {
    private final SessionResources session = new SessionResources("backing host contract");
    private TableModule module;
    private HostedTable table;
    private BackingHost host;
    private TableConnection connection;

    /** A fresh, started instance of the module under test; closed after each test. */
    protected abstract TableModule module();

    @BeforeEach
    void createBacking() {
        module = module();
        TableShape shape = new TableShape("main", "m", List.of(
                new TableShape.Column("k", SqlType.TEXT, Collation.NOCASE, true),
                new TableShape.Column("v", SqlType.INTEGER, Collation.BINARY, false)),
                List.of(new TableShape.KeyPart(0, false)));
        table = module.create(shape, List.of());
        host = table.backingHost().orElseThrow();
        connection = host.connect(session);
    }

    @AfterEach
    void close() {
        session.close();
        module.close();
    }

    private List<String> apply(MaintenanceOp... ops) {
        return host.applyMaintenance(connection, List.of(ops)).stream().map(BackingHostContract::describe).toList();
    }

    private static String describe(BackingRowChange c) {
        return c.kind() + " " + (c.before() == null ? "-" : List.of(c.before())) + " " + (c.after() == null ? "-" : List.of(c.after()));
    }

    @Test
    void upsertOfANewKeyIsAnInsert() {
        assertThat(apply(new MaintenanceOp.Upsert(new Object[] {"a", 1L}))).containsExactly("INSERT - [a, 1]");
    }

    @Test
    void upsertReplacingARowIsAnUpdate() {
        apply(new MaintenanceOp.Upsert(new Object[] {"a", 1L}));
        assertThat(apply(new MaintenanceOp.Upsert(new Object[] {"a", 2L}))).containsExactly("UPDATE [a, 1] [a, 2]");
    }

    @Test
    void aValueIdenticalUpsertReportsNothing() {
        apply(new MaintenanceOp.Upsert(new Object[] {"a", 1L}));
        assertThat(apply(new MaintenanceOp.Upsert(new Object[] {"a", 1L}))).isEmpty();
    }

    @Test
    void aCollationEqualButDifferentKeyIsAnUpdate() {
        apply(new MaintenanceOp.Upsert(new Object[] {"a", 1L}));
        assertThat(apply(new MaintenanceOp.Upsert(new Object[] {"A", 1L}))).containsExactly("UPDATE [a, 1] [A, 1]");
    }

    @Test
    void deleteOfAnAbsentKeyReportsNothing() {
        assertThat(apply(new MaintenanceOp.DeleteKey(new Object[] {"zz"}))).isEmpty();
    }

    @Test
    void aKnownChangeIsReportedAsItsRowsSayAndLeavesItsAfterRow() {
        assertThat(apply(new MaintenanceOp.Change(null, new Object[] {"a", 1L}))).containsExactly("INSERT - [a, 1]");
        assertThat(apply(new MaintenanceOp.Change(new Object[] {"a", 1L}, new Object[] {"A", 2L})))
                .containsExactly("UPDATE [a, 1] [A, 2]");
        assertThat(apply(new MaintenanceOp.Change(new Object[] {"A", 2L}, new Object[] {"A", 2L}))).isEmpty();
        assertThat(connection.get(new Object[] {"a"})).hasValueSatisfying(row -> assertThat(row).containsExactly("A", 2L));
        assertThat(apply(new MaintenanceOp.Change(new Object[] {"A", 2L}, null))).containsExactly("DELETE [A, 2] -");
        assertThat(connection.get(new Object[] {"a"})).isEmpty();
    }

    @Test
    void aKnownChangeOfACommittedRowCommits() {
        apply(new MaintenanceOp.Upsert(new Object[] {"a", 1L}), new MaintenanceOp.Upsert(new Object[] {"b", 2L}));
        connection.commit();
        connection = host.connect(session);
        apply(new MaintenanceOp.Change(new Object[] {"a", 1L}, new Object[] {"a", 10L}),
                new MaintenanceOp.Change(new Object[] {"b", 2L}, null), new MaintenanceOp.Change(null, new Object[] {"c", 3L}));
        connection.prepare();
        connection.commit();
        assertThat(table.committedRowCount()).isEqualTo(2);
        connection = host.connect(session);
        assertThat(connection.get(new Object[] {"a"})).hasValueSatisfying(row -> assertThat(row).containsExactly("a", 10L));
        assertThat(connection.get(new Object[] {"b"})).isEmpty();
    }

    @Test
    void replaceAllIsTheMinimalKeyedDiff() {
        apply(new MaintenanceOp.Upsert(new Object[] {"a", 1L}), new MaintenanceOp.Upsert(new Object[] {"b", 2L}),
                new MaintenanceOp.Upsert(new Object[] {"c", 3L}));
        assertThat(apply(new MaintenanceOp.ReplaceAll(List.of(new Object[] {"d", 4L}, new Object[] {"b", 2L},
                new Object[] {"c", 30L})))).containsExactly("DELETE [a, 1] -", "UPDATE [c, 3] [c, 30]", "INSERT - [d, 4]");
    }

    @Test
    void maintenanceStaysPendingUntilCommit() {
        apply(new MaintenanceOp.Upsert(new Object[] {"a", 1L}));
        assertThat(table.committedRowCount()).isZero();
        connection.commit();
        assertThat(table.committedRowCount()).isEqualTo(1);
    }

    @Test
    void replaceContentsRejectsDuplicateKeysAndKeepsTheOldContents() {
        host.replaceContents(List.<Object[]>of(new Object[] {"a", 1L}), IllegalStateException::new);
        assertThatThrownBy(() -> host.replaceContents(List.of(new Object[] {"x", 1L}, new Object[] {"X", 2L}),
                () -> new IllegalStateException("duplicate")))
                .hasMessage("duplicate");
        assertThat(table.committedRowCount()).isEqualTo(1);
    }

    @Test
    void aConnectionOfAnotherTableIsNotOwned() {
        TableConnection foreign = module.create(new TableShape("main", "other", table.shape().columns(), table.shape().key()),
                List.of()).connect(session);
        assertThat(host.ownsConnection(foreign)).isFalse();
        assertThatThrownBy(() -> host.applyMaintenance(foreign, List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
