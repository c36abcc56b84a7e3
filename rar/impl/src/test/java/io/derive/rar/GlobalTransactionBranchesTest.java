package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.derive.client.DeriveConnection;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Branches of one global transaction — the same global id, a new branch qualifier each, as Liberty
 * starts them for a second connection in one JTA transaction — share one engine transaction on a
 * durable database: neither waits for the other's locks, the vote is sound in any prepare
 * order, and a rollback of any branch rolls back all of them.
 *
 * <p>The lock timeout is 30 s: a second branch that waited for the first one's lock would
 * fail the test by its timeout long after a shared transaction has committed.
 */
class GlobalTransactionBranchesTest {

    private static final AtomicInteger GTRIDS = new AtomicInteger();

    @TempDir
    Path directory;

    private DeriveResourceAdapter adapter;
    private DeriveManagedConnectionFactory factory;

    @BeforeEach
    void setUp() throws Exception {
        start();
        try (DeriveConnection c = handle(newConnection())) {
            c.execute("create table t (k integer primary key, g integer not null)");
            c.execute("create table u (k integer primary key)");
            c.execute("create materialized view per_g as select g, count(*) as n from t group by g");
        }
    }

    @AfterEach
    void tearDown() {
        adapter.stop();
    }

    @Test
    void twoBranchesOfOneGlobalTransactionCommitTogetherWhicheverPreparesFirst() throws Exception {
        for (boolean carrierFirst : new boolean[] {true, false}) {
            int base = carrierFirst ? 10 : 20;
            Branches b = twoBranchesInserting(base);

            int[] votes = carrierFirst
                    ? new int[] {b.first.prepare(b.xid1), b.second.prepare(b.xid2)}
                    : new int[] {b.second.prepare(b.xid2), b.first.prepare(b.xid1)};
            int carrierVote = carrierFirst ? votes[0] : votes[1];
            int otherVote = carrierFirst ? votes[1] : votes[0];
            assertThat(carrierVote).as("vote of the branch whose xid Derby carries").isEqualTo(XAResource.XA_OK);
            assertThat(otherVote).as("vote of the other branch").isEqualTo(XAResource.XA_RDONLY);
            b.first.commit(b.xid1, false);

            assertThat(read("select k from t where k between ? and ? order by k", base, base + 9)).containsExactly((long) base);
            assertThat(read("select k from u where k between ? and ? order by k", base, base + 9)).containsExactly((long) base + 1);
        }
        assertViewEqualsItsBody();
    }

    @Test
    void afterTheOtherBranchVotesReadOnlyTheCarrierCommitsInOnePhase() throws Exception {
        // Liberty's order: the last branch not voting read-only is committed without a prepare of its own.
        Branches b = twoBranchesInserting(25);
        assertThat(b.second.prepare(b.xid2)).isEqualTo(XAResource.XA_RDONLY);
        b.first.commit(b.xid1, true);

        assertThat(read("select k from t where k = 25")).containsExactly(25L);
        assertThat(read("select k from u where k = 26")).containsExactly(26L);
        assertThat(recover(b.first)).isEmpty();
        assertViewEqualsItsBody();
    }

    @Test
    void recoveryAfterThePrepareOfBothBranchesFindsTheXidThatVotedToCommit() throws Exception {
        Branches b = twoBranchesInserting(30);
        assertThat(b.second.prepare(b.xid2)).isEqualTo(XAResource.XA_RDONLY);
        assertThat(b.first.prepare(b.xid1)).isEqualTo(XAResource.XA_OK);
        adapter.stop();
        start();

        XAResource recovery = newConnection().getXAResource();
        assertThat(recover(recovery)).containsExactly(XaCallJournal.format(b.xid1));
        recovery.commit(b.xid1, false);

        assertThat(read("select k from t where k = 30")).containsExactly(30L);
        assertThat(read("select k from u where k = 31")).containsExactly(31L);
        assertViewEqualsItsBody();
    }

    @Test
    void aRollbackOfEitherBranchRollsBackBoth() throws Exception {
        Branches b = twoBranchesInserting(40);
        b.second.rollback(b.xid2);

        assertThatThrownBy(() -> b.first.prepare(b.xid1))
                .isInstanceOfSatisfying(XAException.class, e -> assertThat(e.errorCode).isEqualTo(XAException.XA_RBROLLBACK));
        assertThat(read("select k from t where k = 40")).isEmpty();
        assertThat(read("select k from u where k = 41")).isEmpty();
        assertViewEqualsItsBody();
    }

    @Test
    void aBranchEndedWithTmfailRollsBackTheOtherBranchToo() throws Exception {
        DeriveManagedConnection mc1 = newConnection();
        DeriveManagedConnection mc2 = newConnection();
        Xid xid1 = newXid((byte) 1);
        Xid xid2 = sameGlobal(xid1, (byte) 2);
        mc1.getXAResource().start(xid1, XAResource.TMNOFLAGS);
        mc2.getXAResource().start(xid2, XAResource.TMNOFLAGS);
        handle(mc1).execute("insert into t values (50, 1)");
        mc1.getXAResource().end(xid1, XAResource.TMSUCCESS);
        mc2.getXAResource().end(xid2, XAResource.TMFAIL);

        assertThatThrownBy(() -> mc1.getXAResource().prepare(xid1))
                .isInstanceOfSatisfying(XAException.class, e -> assertThat(e.errorCode).isEqualTo(XAException.XA_RBROLLBACK));
        assertThat(read("select k from t where k = 50")).isEmpty();
    }

    @Test
    void aSecondConnectionJoiningTheSameBranchWritesIntoItsTransaction() throws Exception {
        DeriveManagedConnection mc1 = newConnection();
        DeriveManagedConnection mc2 = newConnection();
        Xid xid = newXid((byte) 1);
        mc1.getXAResource().start(xid, XAResource.TMNOFLAGS);
        handle(mc1).execute("insert into t values (60, 2)");
        mc2.getXAResource().start(xid, XAResource.TMJOIN);
        handle(mc2).execute("insert into u values (61)");
        mc2.getXAResource().end(xid, XAResource.TMSUCCESS);
        mc1.getXAResource().end(xid, XAResource.TMSUCCESS);

        assertThat(mc2.getXAResource().prepare(xid)).isEqualTo(XAResource.XA_OK);
        mc2.getXAResource().commit(xid, false);

        assertThat(read("select k from u where k = 61")).containsExactly(61L);
        assertThat(mc1.getXAResource().isSameRM(mc2.getXAResource())).isTrue();
        assertViewEqualsItsBody();
    }

    @Test
    void noBranchIsPreparedWhileAnotherBranchOfItsTransactionIsStillActive() throws Exception {
        DeriveManagedConnection mc1 = newConnection();
        DeriveManagedConnection mc2 = newConnection();
        Xid xid1 = newXid((byte) 1);
        Xid xid2 = sameGlobal(xid1, (byte) 2);
        mc1.getXAResource().start(xid1, XAResource.TMNOFLAGS);
        mc2.getXAResource().start(xid2, XAResource.TMNOFLAGS);
        handle(mc2).execute("insert into u values (71)");
        mc1.getXAResource().end(xid1, XAResource.TMSUCCESS);

        assertThatThrownBy(() -> mc1.getXAResource().prepare(xid1))
                .isInstanceOfSatisfying(XAException.class, e -> assertThat(e.errorCode).isEqualTo(XAException.XAER_PROTO));
        mc2.getXAResource().end(xid2, XAResource.TMSUCCESS);
        assertThat(mc1.getXAResource().prepare(xid1)).isEqualTo(XAResource.XA_OK);
        assertThat(mc2.getXAResource().prepare(xid2)).isEqualTo(XAResource.XA_RDONLY);
        mc1.getXAResource().commit(xid1, false);
        assertThat(read("select k from u where k = 71")).containsExactly(71L);
    }

    @Test
    void aConnectionWhoseGlobalTransactionCommittedStartsTheNextOne() throws Exception {
        Branches b = twoBranchesInserting(80);
        b.first.commit(b.xid1, true);

        Xid next = newXid((byte) 1);
        b.second.start(next, XAResource.TMNOFLAGS);
        handle(b.secondConnection).execute("insert into u values (89)");
        b.second.end(next, XAResource.TMSUCCESS);
        b.second.commit(next, true);

        assertThat(read("select k from u where k >= 80 and k < 90 order by k")).containsExactly(81L, 89L);
    }

    @Test
    void aTimedOutBranchReleasesItsLocksAtItsDeadlineAndItsLaterCallsAnswerTimeout() throws Exception {
        DeriveManagedConnection idle = newConnection();
        XAResource xa = idle.getXAResource();
        Xid xid = newXid((byte) 1);
        assertThat(xa.setTransactionTimeout(1)).isTrue();
        xa.start(xid, XAResource.TMNOFLAGS);
        handle(idle).execute("insert into t values (90, 0)");

        // Waits for the idle branch's lock on row 90: granted at its deadline, well before the 30 s lock timeout.
        try (DeriveConnection other = handle(newConnection())) {
            other.execute("insert into t values (90, 1)");
        }

        assertThatThrownBy(() -> handle(idle).execute("insert into t values (92, 0)"))
                .hasMessageContaining("timeout");
        assertThatThrownBy(() -> xa.end(xid, XAResource.TMSUCCESS))
                .isInstanceOfSatisfying(XAException.class, e -> assertThat(e.errorCode).isEqualTo(XAException.XA_RBTIMEOUT));
        assertThatThrownBy(() -> xa.prepare(xid))
                .isInstanceOfSatisfying(XAException.class, e -> assertThat(e.errorCode).isEqualTo(XAException.XA_RBTIMEOUT));
        assertThat(read("select k from t where k >= 90 order by k")).containsExactly(90L);
        assertViewEqualsItsBody();
    }

    @Test
    @Timeout(60) // without the stop at the deadline the statement below never ends
    void aStatementRunningAtTheDeadlineStopsAtItsNextRowAndTheBranchAnswersTimeout() throws Exception {
        DeriveManagedConnection mc = newConnection();
        XAResource xa = mc.getXAResource();
        Xid xid = newXid((byte) 1);
        xa.setTransactionTimeout(1);
        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (95, 0)");

        assertThatThrownBy(() -> handle(mc).query("""
                with recursive c(x) as (select 1 union all select x + 1 from c)
                select count(*) from c"""))
                .hasMessageContaining("stopped").hasMessageContaining("1 s timeout");
        assertThatThrownBy(() -> xa.end(xid, XAResource.TMSUCCESS))
                .isInstanceOfSatisfying(XAException.class, e -> assertThat(e.errorCode).isEqualTo(XAException.XA_RBTIMEOUT));
        xa.rollback(xid);
        assertThat(read("select k from t where k = 95")).isEmpty();
    }

    @Test
    // A separate thread: a test thread blocked on a monitor ignores the interrupt of the default mode.
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aRollbackFromAnotherThreadStopsTheRunningStatement() throws Exception {
        DeriveManagedConnection mc = newConnection();
        Xid xid = newXid((byte) 1);
        mc.getXAResource().start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (96, 0)");
        CompletableFuture<String> endless = runningEndlessStatement(mc);

        // The transaction manager's rollback, as at its own timeout, from its own thread.
        newConnection().getXAResource().rollback(xid);

        assertThat(endless.get()).contains("rolled back");
        assertThat(read("select k from t where k = 96")).isEmpty();
    }

    @Test
    // A separate thread: a test thread blocked on a monitor ignores the interrupt of the default mode.
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSecondBranchStartsAndEndsWhileTheFirstRunsAStatement() throws Exception {
        DeriveManagedConnection mc1 = newConnection();
        DeriveManagedConnection mc2 = newConnection();
        Xid xid1 = newXid((byte) 1);
        Xid xid2 = sameGlobal(xid1, (byte) 2);
        mc1.getXAResource().start(xid1, XAResource.TMNOFLAGS);
        CompletableFuture<String> endless = runningEndlessStatement(mc1);

        mc2.getXAResource().start(xid2, XAResource.TMNOFLAGS);
        mc2.getXAResource().end(xid2, XAResource.TMSUCCESS);
        mc2.getXAResource().rollback(xid2);

        assertThat(endless.get()).contains("rolled back");
    }

    // --- helpers ---

    /**
     * Starts a statement that never ends on {@code mc}'s branch and returns once it runs (its
     * message, or "finished", completes the future). Completion calls made meanwhile must not
     * wait for it: a branch lookup once waited for the statement's lock, forever.
     */
    private static CompletableFuture<String> runningEndlessStatement(DeriveManagedConnection mc) throws Exception {
        Thread[] runner = new Thread[1];
        CompletableFuture<String> endless = CompletableFuture.supplyAsync(() -> {
            runner[0] = Thread.currentThread();
            try {
                handle(mc).query("with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c");
                return "finished";
            } catch (Exception e) {
                return e.getMessage();
            }
        });
        while (runner[0] == null || !insideAStatement(runner[0])) {
            Thread.sleep(5);
        }
        return endless;
    }

    private static boolean insideAStatement(Thread thread) {
        return Arrays.stream(thread.getStackTrace()).anyMatch(f -> f.getClassName().startsWith("io.derive.engine.exec"));
    }

    /** Two connections, each on its own branch of one global transaction, both ended: t gets row base, u row base + 1. */
    private record Branches(XAResource first, Xid xid1, XAResource second, Xid xid2, DeriveManagedConnection secondConnection) {
    }

    private Branches twoBranchesInserting(int base) throws Exception {
        DeriveManagedConnection mc1 = newConnection();
        DeriveManagedConnection mc2 = newConnection();
        Xid xid1 = newXid((byte) 1);
        Xid xid2 = sameGlobal(xid1, (byte) 2);
        mc1.getXAResource().start(xid1, XAResource.TMNOFLAGS);
        handle(mc1).execute("insert into t values (?, ?)", base, base % 3);
        mc2.getXAResource().start(xid2, XAResource.TMNOFLAGS);
        handle(mc2).execute("insert into u values (?)", base + 1);
        handle(mc2).execute("update t set g = g + 1 where k = ?", base);
        mc1.getXAResource().end(xid1, XAResource.TMSUCCESS);
        mc2.getXAResource().end(xid2, XAResource.TMSUCCESS);
        return new Branches(mc1.getXAResource(), xid1, mc2.getXAResource(), xid2, mc2);
    }

    private void assertViewEqualsItsBody() throws Exception {
        try (DeriveConnection c = handle(newConnection())) {
            assertThat(c.query("select g, n from per_g order by g").stream().map(r -> r.values()).toList())
                    .isEqualTo(c.query("select g, count(*) from t group by g order by g").stream().map(r -> r.values()).toList());
        }
    }

    private List<Object> read(String sql, Object... params) throws Exception {
        try (DeriveConnection c = handle(newConnection())) {
            return c.query(sql, params).stream().map(r -> r.get(0)).toList();
        }
    }

    private static List<String> recover(XAResource xa) throws XAException {
        return Arrays.stream(xa.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)).map(XaCallJournal::format).toList();
    }

    private void start() throws Exception {
        adapter = new DeriveResourceAdapter();
        adapter.start(null);
        factory = new DeriveManagedConnectionFactory();
        factory.setDatabaseName("branches-" + directory.getFileName());
        factory.setDefaultHost("derby");
        factory.setWriteLockTimeoutMillis(30_000L);
        factory.setDatabaseDirectory(directory.toString());
        factory.setResourceAdapter(adapter);
    }

    private DeriveManagedConnection newConnection() throws Exception {
        return (DeriveManagedConnection) factory.createManagedConnection(null, null);
    }

    private static DeriveConnection handle(DeriveManagedConnection mc) throws Exception {
        return (DeriveConnection) mc.getConnection(null, null);
    }

    private static Xid newXid(byte bqual) {
        return ForeignXid.of(4713, "branches-" + ProcessHandle.current().pid() + "-" + GTRIDS.incrementAndGet(), bqual);
    }

    private static Xid sameGlobal(Xid xid, byte bqual) {
        return ForeignXid.of(xid.getFormatId(), new String(xid.getGlobalTransactionId(), java.nio.charset.StandardCharsets.US_ASCII), bqual);
    }
}
