package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.derive.client.DeriveConnection;
import io.derive.engine.api.DeriveException;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.LocalTransaction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The JCA roles against a real engine database on the memory host; no container involved. */
class DeriveResourceAdapterTest {

    private static final AtomicInteger GTRIDS = new AtomicInteger();

    private DeriveResourceAdapter adapter;
    private DeriveManagedConnectionFactory factory;
    private final List<DeriveManagedConnection> opened = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        adapter = new DeriveResourceAdapter();
        adapter.start(null);
        factory = factoryFor("unit-" + UUID.randomUUID());
        try (DeriveConnection c = handle(newConnection())) {
            c.execute("create table t (k integer primary key, v text, n integer not null)");
            c.execute("create materialized view mv as select k, v from t where n > 0");
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        for (DeriveManagedConnection mc : opened) {
            mc.destroy();
        }
        adapter.stop();
    }

    @Test
    void getXAResourceReturnsTheSameInstanceEveryTime() throws Exception {
        DeriveManagedConnection mc = newConnection();
        assertThat(mc.getXAResource()).isSameAs(mc.getXAResource());
    }

    @Test
    void twoPhaseCommitMakesTheWriteAndItsViewRowVisibleToOtherSessions() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();

        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (1, 'a', 5)");
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        assertThat(readK("select k from t")).isEmpty();
        xa.commit(xid, false);

        assertThat(readK("select k from t")).containsExactly(1L);
        assertThat(readK("select k from mv")).containsExactly(1L);
    }

    @Test
    void rollbackLeavesNothingVisible() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();

        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (1, 'a', 5)");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.rollback(xid);

        assertThat(readK("select k from t")).isEmpty();
        assertThat(readK("select k from mv")).isEmpty();
        // The branch is gone: the session autocommits again.
        handle(mc).execute("insert into t values (2, 'b', 5)");
        assertThat(readK("select k from t")).containsExactly(2L);
    }

    @Test
    void onePhaseCommitPreparesAndCommits() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();

        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (1, 'a', 5)");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);

        assertThat(readK("select k from mv")).containsExactly(1L);
        assertThat(journalOf(xid)).extracting(XaCallJournal.Entry::operation, XaCallJournal.Entry::detail)
                .last().isEqualTo(org.assertj.core.groups.Tuple.tuple("commit", "onePhase=true"));
    }

    @Test
    void aBranchThatWroteNothingVotesReadOnlyAndIsThenComplete() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();

        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).query("select k from t");
        xa.end(xid, XAResource.TMSUCCESS);

        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_RDONLY);
        assertThatThrownBy(() -> xa.commit(xid, false))
                .isInstanceOfSatisfying(XAException.class, e -> assertThat(e.errorCode).isEqualTo(XAException.XAER_NOTA));
    }

    @Test
    void joinRebindsTheSameEngineTransaction() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();

        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (1, 'a', 5)");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.start(xid, XAResource.TMJOIN);
        assertThat(handle(mc).query("select k from t")).hasSize(1);
        handle(mc).execute("insert into t values (2, 'b', 5)");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);

        assertThat(readK("select k from t order by k")).containsExactly(1L, 2L);
    }

    @Test
    void callsForAnUnknownBranchAreRefusedWithNota() throws Exception {
        XAResource xa = newConnection().getXAResource();
        Xid unknown = newXid();
        for (XaCall call : List.<XaCall>of(() -> xa.prepare(unknown), () -> xa.commit(unknown, false),
                () -> xa.rollback(unknown), () -> xa.end(unknown, XAResource.TMSUCCESS))) {
            assertThatThrownBy(call::run)
                    .isInstanceOfSatisfying(XAException.class, e -> assertThat(e.errorCode).isEqualTo(XAException.XAER_NOTA));
        }
    }

    @Test
    void aFailedBranchVotesRollback() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();

        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (1, 'a', 5)");
        xa.end(xid, XAResource.TMFAIL);

        assertThatThrownBy(() -> xa.prepare(xid))
                .isInstanceOfSatisfying(XAException.class, e -> assertThat(e.errorCode).isEqualTo(XAException.XA_RBROLLBACK));
        assertThat(readK("select k from t")).isEmpty();
    }

    @Test
    void transactionControlStatementsAreRefusedInsideABranch() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();
        xa.start(xid, XAResource.TMNOFLAGS);

        assertThatThrownBy(() -> handle(mc).execute("  -- comment\n COMMIT"))
                .isInstanceOf(DeriveException.class).hasMessageContaining("not allowed inside a JTA transaction");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.rollback(xid);
    }

    @Test
    void isSameRmHoldsForConnectionsToTheSameDatabaseOnly() throws Exception {
        XAResource a = newConnection().getXAResource();
        XAResource b = newConnection().getXAResource();
        DeriveManagedConnectionFactory other = factoryFor("unit-other-" + UUID.randomUUID());
        DeriveManagedConnection elsewhere = (DeriveManagedConnection) other.createManagedConnection(null, null);
        opened.add(elsewhere);

        assertThat(a.isSameRM(b)).isTrue();
        assertThat(a.isSameRM(elsewhere.getXAResource())).isFalse();
    }

    @Test
    void localTransactionCommitsAndRollsBack() throws Exception {
        DeriveManagedConnection mc = newConnection();
        LocalTransaction tx = mc.getLocalTransaction();
        DeriveConnection c = handle(mc);

        tx.begin();
        c.execute("insert into t values (1, 'a', 5)");
        assertThat(readK("select k from t")).isEmpty();
        tx.commit();
        assertThat(readK("select k from mv")).containsExactly(1L);

        tx.begin();
        c.execute("insert into t values (2, 'b', 5)");
        tx.rollback();
        assertThat(readK("select k from t")).containsExactly(1L);
    }

    @Test
    void closingAHandleEmitsConnectionClosedForThatHandle() throws Exception {
        DeriveManagedConnection mc = newConnection();
        List<ConnectionEvent> events = listen(mc);
        DeriveConnection c = handle(mc);

        c.close();
        c.close();

        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.getId()).isEqualTo(ConnectionEvent.CONNECTION_CLOSED);
            assertThat(e.getConnectionHandle()).isSameAs(c);
        });
        assertThatThrownBy(() -> c.query("select k from t")).isInstanceOf(DeriveException.class).hasMessageContaining("closed");
    }

    @Test
    void sqlTransactionControlOnAHandleEmitsLocalTransactionEvents() throws Exception {
        DeriveManagedConnection mc = newConnection();
        List<ConnectionEvent> events = listen(mc);
        DeriveConnection c = handle(mc);

        c.execute("begin");
        c.execute("insert into t values (1, 'a', 5)");
        c.execute("commit");
        c.execute("begin");
        c.execute("rollback");

        assertThat(events).extracting(ConnectionEvent::getId).containsExactly(
                ConnectionEvent.LOCAL_TRANSACTION_STARTED, ConnectionEvent.LOCAL_TRANSACTION_COMMITTED,
                ConnectionEvent.LOCAL_TRANSACTION_STARTED, ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK);
        assertThat(readK("select k from t")).containsExactly(1L);
    }

    @Test
    void handlesOfOneManagedConnectionShareItsTransaction() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();
        DeriveConnection first = handle(mc);
        DeriveConnection second = handle(mc);

        xa.start(xid, XAResource.TMNOFLAGS);
        first.execute("insert into t values (1, 'a', 5)");
        assertThat(second.query("select k from mv")).hasSize(1);
        second.execute("insert into t values (2, 'b', 5)");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);

        assertThat(readK("select k from t order by k")).containsExactly(1L, 2L);
    }

    @Test
    void cleanupInvalidatesHandlesAndRollsBackAnOpenLocalTransaction() throws Exception {
        DeriveManagedConnection mc = newConnection();
        DeriveConnection c = handle(mc);
        c.execute("begin");
        c.execute("insert into t values (1, 'a', 5)");

        mc.cleanup();

        assertThatThrownBy(() -> c.execute("insert into t values (2, 'b', 5)")).isInstanceOf(DeriveException.class);
        assertThat(mc.session().inTransaction()).isFalse();
        assertThat(readK("select k from t")).isEmpty();
        // The connection is reusable with a new handle, and the lock on row 1 was released.
        handle(newConnection()).execute("insert into t values (1, 'c', 5)");
        assertThat(readK("select k from t")).containsExactly(1L);
    }

    @Test
    void associateConnectionMovesAHandle() throws Exception {
        DeriveManagedConnection a = newConnection();
        DeriveManagedConnection b = newConnection();
        DeriveConnection c = handle(a);
        List<ConnectionEvent> eventsOfB = listen(b);

        b.associateConnection(c);
        c.close();

        assertThat(eventsOfB).extracting(ConnectionEvent::getId).containsExactly(ConnectionEvent.CONNECTION_CLOSED);
    }

    @Test
    void journalRecordsTheCallsOfABranchInOrder() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();

        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (1, 'a', 5)");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.prepare(xid);
        xa.commit(xid, false);

        assertThat(journalOf(xid)).extracting(XaCallJournal.Entry::operation, XaCallJournal.Entry::detail,
                        XaCallJournal.Entry::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("start", "TMNOFLAGS", "ok"),
                        org.assertj.core.groups.Tuple.tuple("end", "TMSUCCESS", "ok"),
                        org.assertj.core.groups.Tuple.tuple("prepare", "", "XA_OK"),
                        org.assertj.core.groups.Tuple.tuple("commit", "onePhase=false", "ok"));
        assertThat(journalOf(xid)).extracting(XaCallJournal.Entry::sequence).isSorted();
    }

    @Test
    void factoriesAreEqualByConfiguration() {
        DeriveManagedConnectionFactory a = new DeriveManagedConnectionFactory();
        DeriveManagedConnectionFactory b = new DeriveManagedConnectionFactory();
        a.setDatabaseName("x");
        b.setDatabaseName("x");
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        b.setWriteLockTimeoutMillis(1L);
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void stoppedAdapterClosesItsDatabasesAndRefusesNewConnections() throws Exception {
        for (DeriveManagedConnection mc : opened) {
            mc.destroy();
        }
        opened.clear();
        adapter.stop();
        assertThatThrownBy(() -> factory.createManagedConnection(null, null))
                .isInstanceOf(jakarta.resource.ResourceException.class).hasMessageContaining("not started");
        adapter.start(null);
    }

    // --- helpers ---

    @FunctionalInterface
    private interface XaCall {
        void run() throws Exception;
    }

    private DeriveManagedConnectionFactory factoryFor(String databaseName) throws Exception {
        DeriveManagedConnectionFactory f = new DeriveManagedConnectionFactory();
        f.setDatabaseName(databaseName);
        f.setWriteLockTimeoutMillis(2_000L);
        f.setResourceAdapter(adapter);
        return f;
    }

    private DeriveManagedConnection newConnection() throws Exception {
        DeriveManagedConnection mc = (DeriveManagedConnection) factory.createManagedConnection(null, null);
        opened.add(mc);
        return mc;
    }

    private static DeriveConnection handle(DeriveManagedConnection mc) throws Exception {
        return (DeriveConnection) mc.getConnection(null, null);
    }

    /** Reads the first column as longs through a fresh session in autocommit. */
    private List<Object> readK(String sql) throws Exception {
        DeriveManagedConnection reader = newConnection();
        try (DeriveConnection c = handle(reader)) {
            return c.query(sql).stream().map(r -> r.get(0)).toList();
        }
    }

    private List<XaCallJournal.Entry> journalOf(Xid xid) {
        String formatted = XaCallJournal.format(xid);
        return XaCallJournal.forDatabase(factory.getDatabaseName()).entries().stream()
                .filter(e -> e.xid().equals(formatted)).toList();
    }

    private static List<ConnectionEvent> listen(DeriveManagedConnection mc) {
        List<ConnectionEvent> events = new ArrayList<>();
        mc.addConnectionEventListener(new ConnectionEventListener() {
            @Override public void connectionClosed(ConnectionEvent e) { events.add(e); }
            @Override public void localTransactionStarted(ConnectionEvent e) { events.add(e); }
            @Override public void localTransactionCommitted(ConnectionEvent e) { events.add(e); }
            @Override public void localTransactionRolledback(ConnectionEvent e) { events.add(e); }
            @Override public void connectionErrorOccurred(ConnectionEvent e) { events.add(e); }
        });
        return events;
    }

    private static Xid newXid() {
        return ForeignXid.of(4711, "gtrid-" + GTRIDS.incrementAndGet(), (byte) 1);
    }
}
