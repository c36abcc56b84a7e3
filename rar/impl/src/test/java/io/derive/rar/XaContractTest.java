package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.client.DeriveConnection;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The XA answer of every (branch state × call × flags) cell, on a durable database whose
 * branches are Derby XA branches: after each cell the row the branch wrote is present exactly
 * when the cell committed it, and the materialized view equals its body.
 *
 * <p>States: {@code none} (no branch of the xid anywhere), {@code active}, {@code suspended},
 * {@code ended} (TMSUCCESS), {@code failed} (ended TMFAIL: rollback-only), {@code prepared} (on
 * the connection called), {@code elsewhere} (prepared on a connection since destroyed; the call
 * goes to a fresh one).
 */
class XaContractTest {

    /** state | call | answer — {@code ok}, a vote, or the XAException code. */
    private static final String CELLS = """
            none      | start          | ok
            none      | start-join     | XAER_NOTA
            none      | start-resume   | XAER_NOTA
            none      | end-success    | XAER_NOTA
            none      | end-suspend    | XAER_NOTA
            none      | end-fail       | XAER_NOTA
            none      | prepare        | XAER_NOTA
            none      | commit-1p      | XAER_NOTA
            none      | commit-2p      | XAER_NOTA
            none      | rollback       | XAER_NOTA
            none      | forget         | XAER_NOTA
            none      | recover        | ok
            active    | start          | XAER_DUPID
            active    | start-join     | XAER_PROTO
            active    | start-resume   | XAER_PROTO
            active    | end-success    | ok
            active    | end-suspend    | ok
            active    | end-fail       | ok
            active    | prepare        | XAER_PROTO
            active    | commit-1p      | XAER_PROTO
            active    | commit-2p      | XAER_PROTO
            active    | rollback       | ok
            active    | forget         | XAER_NOTA
            active    | recover        | ok
            suspended | start          | XAER_DUPID
            suspended | start-join     | ok
            suspended | start-resume   | ok
            suspended | end-success    | ok
            suspended | end-suspend    | XAER_PROTO
            suspended | end-fail       | ok
            suspended | prepare        | XAER_PROTO
            suspended | commit-1p      | XAER_PROTO
            suspended | commit-2p      | XAER_PROTO
            suspended | rollback       | ok
            suspended | forget         | XAER_NOTA
            suspended | recover        | ok
            ended     | start          | XAER_DUPID
            ended     | start-join     | ok
            ended     | start-resume   | XAER_PROTO
            ended     | end-success    | XAER_PROTO
            ended     | end-suspend    | XAER_PROTO
            ended     | end-fail       | XAER_PROTO
            ended     | prepare        | XA_OK
            ended     | commit-1p      | committed
            ended     | commit-2p      | XAER_PROTO
            ended     | rollback       | ok
            ended     | forget         | XAER_NOTA
            ended     | recover        | ok
            failed    | start          | XAER_DUPID
            failed    | start-join     | ok
            failed    | start-resume   | XAER_PROTO
            failed    | end-success    | XAER_PROTO
            failed    | end-suspend    | XAER_PROTO
            failed    | end-fail       | XAER_PROTO
            failed    | prepare        | XA_RBROLLBACK
            failed    | commit-1p      | XA_RBROLLBACK
            failed    | commit-2p      | XAER_PROTO
            failed    | rollback       | ok
            failed    | forget         | XAER_NOTA
            failed    | recover        | ok
            prepared  | start          | XAER_DUPID
            prepared  | start-join     | XAER_PROTO
            prepared  | start-resume   | XAER_PROTO
            prepared  | end-success    | XAER_PROTO
            prepared  | end-suspend    | XAER_PROTO
            prepared  | end-fail       | XAER_PROTO
            prepared  | prepare        | XAER_PROTO
            prepared  | commit-1p      | XAER_PROTO
            prepared  | commit-2p      | committed
            prepared  | rollback       | ok
            prepared  | forget         | XAER_NOTA
            prepared  | recover        | lists
            elsewhere | start          | XAER_DUPID
            elsewhere | start-join     | XAER_NOTA
            elsewhere | start-resume   | XAER_NOTA
            elsewhere | end-success    | XAER_NOTA
            elsewhere | end-suspend    | XAER_NOTA
            elsewhere | end-fail       | XAER_NOTA
            elsewhere | prepare        | XAER_NOTA
            elsewhere | commit-1p      | XAER_NOTA
            elsewhere | commit-2p      | committed
            elsewhere | rollback       | ok
            elsewhere | forget         | XAER_NOTA
            elsewhere | recover        | lists
            """;

    private static final AtomicInteger KEYS = new AtomicInteger();

    @TempDir
    static Path directory;

    private static DeriveResourceAdapter adapter;
    private static DeriveManagedConnectionFactory factory;

    record Cell(String state, String call, String answer) {
        @Override
        public String toString() {
            return state + " × " + call + " → " + answer;
        }
    }

    static Stream<Cell> cells() {
        return CELLS.lines().map(l -> l.split("\\|")).map(p -> new Cell(p[0].trim(), p[1].trim(), p[2].trim()));
    }

    @BeforeAll
    static void openDatabase() throws Exception {
        adapter = new DeriveResourceAdapter();
        adapter.start(null);
        factory = new DeriveManagedConnectionFactory();
        factory.setDatabaseName("xa-contract");
        factory.setDefaultHost("derby");
        factory.setWriteLockTimeoutMillis(5_000L);
        factory.setDatabaseDirectory(directory.toString());
        factory.setResourceAdapter(adapter);
        try (DeriveConnection c = handle(newConnection())) {
            c.execute("create table t (k integer primary key, g integer not null, v integer not null)");
            c.execute("create materialized view per_g as select g, count(*) as n, sum(v) as total from t group by g");
        }
    }

    @AfterAll
    static void closeDatabase() {
        adapter.stop();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void everyCellAnswersItsXaCodeAndLeavesTheViewEqualToItsBody(Cell cell) throws Exception {
        int key = KEYS.incrementAndGet();
        Xid xid = xid(key);
        DeriveManagedConnection mc = newConnection();
        XAResource xa = arrange(cell.state(), mc, xid, key);

        String answer = answer(() -> call(cell.call(), xa, xid));

        if (cell.answer().equals("lists")) {
            assertThat(answer).as(cell.toString()).contains(XaCallJournal.format(xid));
        } else if (cell.answer().equals("committed")) {
            assertThat(answer).as(cell.toString()).isEqualTo("ok");
        } else {
            assertThat(answer).as(cell.toString()).isEqualTo(cell.answer());
        }
        settle(xa, xid);
        if (cell.answer().equals("committed")) {
            assertThat(keys()).as("row of " + cell).contains((long) key);
        } else {
            assertThat(keys()).as("row of " + cell).doesNotContain((long) key);
        }
        assertThat(query("select g, n, total from per_g order by g"))
                .isEqualTo(query("select g, count(*), sum(v) from t group by g order by g"));
        mc.destroy();
    }

    /** Brings a branch of {@code xid} that wrote row {@code key} to {@code state}; returns the XAResource to call. */
    private static XAResource arrange(String state, DeriveManagedConnection mc, Xid xid, int key) throws Exception {
        XAResource xa = mc.getXAResource();
        if (state.equals("none")) {
            return xa;
        }
        xa.start(xid, XAResource.TMNOFLAGS);
        handle(mc).execute("insert into t values (?, ?, ?)", key, key % 3, key);
        switch (state) {
            case "active" -> {
            }
            case "suspended" -> xa.end(xid, XAResource.TMSUSPEND);
            case "ended" -> xa.end(xid, XAResource.TMSUCCESS);
            case "failed" -> xa.end(xid, XAResource.TMFAIL);
            case "prepared", "elsewhere" -> {
                xa.end(xid, XAResource.TMSUCCESS);
                assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
            }
            default -> throw new IllegalArgumentException(state);
        }
        if (state.equals("elsewhere")) {
            mc.destroy();
            return newConnection().getXAResource();
        }
        return xa;
    }

    private static String call(String call, XAResource xa, Xid xid) throws XAException {
        switch (call) {
            case "start" -> xa.start(xid, XAResource.TMNOFLAGS);
            case "start-join" -> xa.start(xid, XAResource.TMJOIN);
            case "start-resume" -> xa.start(xid, XAResource.TMRESUME);
            case "end-success" -> xa.end(xid, XAResource.TMSUCCESS);
            case "end-suspend" -> xa.end(xid, XAResource.TMSUSPEND);
            case "end-fail" -> xa.end(xid, XAResource.TMFAIL);
            case "prepare" -> {
                return xa.prepare(xid) == XAResource.XA_OK ? "XA_OK" : "XA_RDONLY";
            }
            case "commit-1p" -> xa.commit(xid, true);
            case "commit-2p" -> xa.commit(xid, false);
            case "rollback" -> xa.rollback(xid);
            case "forget" -> xa.forget(xid);
            case "recover" -> {
                return "ok " + Arrays.stream(xa.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))
                        .map(XaCallJournal::format).toList();
            }
            default -> throw new IllegalArgumentException(call);
        }
        return "ok";
    }

    /** Rolls back whatever the cell left of the branch, wherever it is, so the next cell starts clean. */
    private static void settle(XAResource xa, Xid xid) {
        answer(() -> {
            xa.end(xid, XAResource.TMSUCCESS);
            return "ok";
        });
        answer(() -> {
            xa.rollback(xid);
            return "ok";
        });
    }

    @FunctionalInterface
    private interface XaCall {
        String run() throws XAException;
    }

    private static String answer(XaCall call) {
        try {
            String result = call.run();
            return result.startsWith("ok ") && !result.contains(":") ? "ok" : result;
        } catch (XAException e) {
            return XaCodes.codeName(e.errorCode);
        }
    }

    private static List<Long> keys() throws Exception {
        return query("select k from t order by k").stream().map(r -> (Long) r.get(0)).toList();
    }

    private static List<List<Object>> query(String sql) throws Exception {
        try (DeriveConnection c = handle(newConnection())) {
            return c.query(sql).stream().map(io.derive.engine.api.Row::values).toList();
        }
    }

    private static DeriveManagedConnection newConnection() throws Exception {
        return (DeriveManagedConnection) factory.createManagedConnection(null, null);
    }

    private static DeriveConnection handle(DeriveManagedConnection mc) throws Exception {
        return (DeriveConnection) mc.getConnection(null, null);
    }

    private static Xid xid(int key) {
        return ForeignXid.of(4712, "contract-" + ProcessHandle.current().pid() + "-" + key, (byte) 7);
    }
}
