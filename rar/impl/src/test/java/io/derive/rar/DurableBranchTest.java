package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DatabaseStatus;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A branch on a durable database rides on a Derby XA branch: once prepared it survives the
 * adapter's stop and its managed connection's destroy, in doubt, until recovery decides it.
 */
class DurableBranchTest {

    private static final AtomicInteger GTRIDS = new AtomicInteger();

    @TempDir
    Path directory;

    private DeriveResourceAdapter adapter;
    private DeriveManagedConnectionFactory factory;
    private final List<DeriveManagedConnection> opened = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        start();
        try (DeriveConnection c = handle(newConnection())) {
            c.execute("create table t (k integer primary key, v text, n integer not null)");
            c.execute("create materialized view mv as select k, v from t where n > 0");
            c.execute("insert into t values (1, 'one', 1)");
        }
    }

    @AfterEach
    void tearDown() {
        stop();
    }

    @Test
    void aPreparedBranchIsInDoubtAfterARestartAndItsCommitMakesTheRowsAndViewRowsVisible() throws Exception {
        Xid xid = prepareInsertOf(2);
        restart();

        XAResource recovery = newConnection().getXAResource();
        assertThat(recover(recovery)).containsExactly(XaCallJournal.format(xid));
        recovery.commit(xid, false);

        assertThat(readK("select k from t order by k")).containsExactly(1L, 2L);
        assertThat(readK("select k from mv order by k")).containsExactly(1L, 2L);
        assertThat(recover(recovery)).isEmpty();
    }

    @Test
    void aPreparedBranchRolledBackAfterARestartLeavesNoTrace() throws Exception {
        Xid xid = prepareInsertOf(2);
        restart();

        XAResource recovery = newConnection().getXAResource();
        recovery.rollback(xid);

        assertThat(readK("select k from t order by k")).containsExactly(1L);
        assertThat(readK("select k from mv order by k")).containsExactly(1L);
    }

    @Test
    void whileABranchIsInDoubtAfterARestartStatementsOnWhatItWroteFailNamingItAndOthersAnswer() throws Exception {
        try (DeriveConnection c = handle(newConnection())) {
            c.execute("create table other (k integer primary key)");
        }
        Xid xid = prepareInsertOf(2);
        restart();

        assertThatThrownBy(() -> readK("select k from t"))
                .hasMessageContaining("table 'main.t' waits for the outcome of in-doubt transaction")
                .hasMessageContaining(XaCallJournal.format(xid));
        assertThatThrownBy(() -> readK("select k from mv"))
                .hasMessageContaining("materialized view 'main.mv' waits for the outcome of in-doubt transaction");
        assertThat(readK("select k from other")).isEmpty();
    }

    @Test
    void whileABranchThatChangedTheCatalogIsInDoubtAfterARestartEveryStatementFailsNamingIt() throws Exception {
        Xid xid = prepareCreateOfTableU();
        restart();

        assertThatThrownBy(() -> readK("select k from t"))
                .hasMessageContaining("waits for the outcome of in-doubt transaction")
                .hasMessageContaining("changed its catalog")
                .hasMessageContaining(XaCallJournal.format(xid));
    }

    @Test
    void whileABranchIsInDoubtAfterARestartTheFactoryReportsTheWaitAndOnceItIsDecidedTheOpen() throws Exception {
        Xid xid = prepareInsertOf(2);
        restart();
        DeriveConnectionFactory connections = connectionFactory();

        DatabaseStatus waiting = connections.status();
        newConnection().getXAResource().commit(xid, false);

        assertThat(waiting.state()).isEqualTo(DatabaseStatus.State.WAITING_FOR_IN_DOUBT);
        assertThat(waiting.inDoubtBranches()).isEqualTo(1);
        assertThat(waiting.detail()).contains("waits for the outcome of 1 in-doubt transaction", XaCallJournal.format(xid), "main.t");
        assertThat(connections.status().state()).isEqualTo(DatabaseStatus.State.OPEN);
    }

    @Test
    void aPreparedBranchSurvivesTheDestroyOfItsManagedConnectionAndIsCommittedFromAnother() throws Exception {
        DeriveManagedConnection mc = newConnection();
        Xid xid = prepareInsertOf(mc, 2);
        mc.destroy();

        XAResource other = newConnection().getXAResource();
        assertThat(recover(other)).containsExactly(XaCallJournal.format(xid));
        other.commit(xid, false);

        assertThat(readK("select k from t order by k")).containsExactly(1L, 2L);
        assertThat(readK("select k from mv order by k")).containsExactly(1L, 2L);
    }

    @Test
    void aBranchCreatingATableThatRecoveryRollsBackLeavesNoTable() throws Exception {
        Xid xid = prepareCreateOfTableU();
        restart();

        newConnection().getXAResource().rollback(xid);

        assertThatThrownBy(() -> readK("select k from u")).hasMessageContaining("u");
        try (DeriveConnection c = handle(newConnection())) {
            c.execute("create table u (k integer primary key)");
            assertThat(c.query("select k from u")).isEmpty();
        }
    }

    @Test
    void aBranchCreatingATableThatRecoveryCommitsKeepsTheTableAndItsRows() throws Exception {
        Xid xid = prepareCreateOfTableU();
        restart();

        newConnection().getXAResource().commit(xid, false);

        assertThat(readK("select k from u")).containsExactly(7L);
    }

    @Test
    void aOnePhaseCommitOnADurableDatabaseNeedsNoPrepare() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();
        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (2, 'two', 1)");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);
        restart();

        assertThat(readK("select k from mv order by k")).containsExactly(1L, 2L);
    }

    @Test
    void aBranchThatOnlyReadsVotesReadOnlyAndLeavesNothingInDoubt() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();
        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).query("select k from t");
        xa.end(xid, XAResource.TMSUCCESS);

        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_RDONLY);
        assertThat(recover(xa)).isEmpty();
    }

    @Test
    void committingAnUnknownBranchAnswersNota() throws Exception {
        XAResource xa = newConnection().getXAResource();
        assertThatThrownBy(() -> xa.commit(newXid(), false))
                .isInstanceOfSatisfying(XAException.class, e -> assertThat(e.errorCode).isEqualTo(XAException.XAER_NOTA));
    }

    // --- helpers ---

    /** Prepares a branch that creates table u (a new Derby table) and inserts a row into it. */
    private Xid prepareCreateOfTableU() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();
        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("create table u (k integer primary key)");
        handle(mc).execute("insert into u values (7)");
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        return xid;
    }

    private Xid prepareInsertOf(int k) throws Exception {
        return prepareInsertOf(newConnection(), k);
    }

    private Xid prepareInsertOf(DeriveManagedConnection mc, int k) throws Exception {
        XAResource xa = mc.getXAResource();
        Xid xid = newXid();
        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (?, 'v', 1)", k);
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        return xid;
    }

    private static List<String> recover(XAResource xa) throws XAException {
        return java.util.Arrays.stream(xa.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))
                .map(XaCallJournal::format).toList();
    }

    private void start() throws Exception {
        adapter = new DeriveResourceAdapter();
        adapter.start(null);
        factory = new DeriveManagedConnectionFactory();
        factory.setDatabaseName("durable-" + directory.getFileName());
        factory.setDefaultHost("derby");
        factory.setWriteLockTimeoutMillis(2_000L);
        factory.setDatabaseDirectory(directory.toString());
        factory.setResourceAdapter(adapter);
    }

    private void stop() {
        opened.clear();
        adapter.stop();
    }

    /** Stops the adapter without deciding anything, as a server stop does, and starts a new one. */
    private void restart() throws Exception {
        stop();
        start();
    }

    private DeriveConnectionFactory connectionFactory() throws Exception {
        return (DeriveConnectionFactory) factory.createConnectionFactory(
                (mcf, info) -> mcf.createManagedConnection(null, info).getConnection(null, info));
    }

    private DeriveManagedConnection newConnection() throws Exception {
        DeriveManagedConnection mc = (DeriveManagedConnection) factory.createManagedConnection(null, null);
        opened.add(mc);
        return mc;
    }

    private static DeriveConnection handle(DeriveManagedConnection mc) throws Exception {
        return (DeriveConnection) mc.getConnection(null, null);
    }

    private List<Object> readK(String sql) throws Exception {
        try (DeriveConnection c = handle(newConnection())) {
            return c.query(sql).stream().map(r -> r.get(0)).toList();
        }
    }

    private static Xid newXid() {
        return ForeignXid.of(4711, "durable-" + ProcessHandle.current().pid() + "-" + GTRIDS.incrementAndGet(), (byte) 1);
    }
}
