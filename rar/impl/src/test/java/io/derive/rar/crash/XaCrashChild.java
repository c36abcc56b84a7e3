package io.derive.rar.crash;

import io.derive.client.DeriveConnection;
import io.derive.engine.api.Row;
import io.derive.rar.DeriveManagedConnection;
import io.derive.rar.DeriveManagedConnectionFactory;
import io.derive.rar.DeriveResourceAdapter;

import jakarta.transaction.TransactionManager;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

import javax.sql.XAConnection;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

import org.apache.derby.jdbc.EmbeddedXADataSource;

import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionImple;

/**
 * The crash child: opens the two resources of a run directory — a Derive database on the Derby
 * host through the resource adapter, and a plain Derby database through its XA data source —
 * recovers them with Narayana, reports their state, and (in {@code work} mode) then runs
 * two-resource Narayana transactions until the parent kills it.
 *
 * <p>Arguments: run directory, generation (transaction ids are {@code generation * 100000 + n}),
 * mode ({@code work} or {@code check}), random seed, the pause before the Derby resource's
 * prepare in milliseconds ({@link PausingXAResource}). Its standard output carries only the
 * protocol lines of {@link #say}; everything else goes to standard error.
 */
public final class XaCrashChild {
    static final String IN_DOUBT = "INDOUBT";
    static final String LOGGED = "LOGGED";
    static final String ORPHAN = "ORPHAN";
    static final String ROWS = "ROWS";
    static final String VIEW = "VIEW";
    static final String READY = "READY";
    static final String BEGIN = "BEGIN";
    static final String ACK = "ACK";
    static final String ERROR = "ERROR";
    static final String DONE = "DONE";

    static final String DERIVE = "derive";
    static final String DERBY = "derby";

    /** A materialized view: its name, its columns and its body. */
    private record View(String name, String columns, String body) {
    }

    /** A projection and a group-by; the check compares each view's rows with its body's. */
    private static final List<View> VIEWS = List.of(
            new View("big_rows", "id, grp, amt", "select id, grp, amt from src where amt >= 50"),
            new View("per_group", "grp, n, total", "select grp, count(*) as n, sum(amt) as total from src group by grp"));

    private static PrintStream protocol;

    private XaCrashChild() {
    }

    public static void main(String[] args) throws Exception {
        protocol = System.out;
        // Derby, Narayana or the engine printing to stdout must not garble the protocol.
        System.setOut(System.err);
        haltWhenTheParentDies();
        try {
            run(Path.of(args[0]), Integer.parseInt(args[1]), args[2].equals("work"), Long.parseLong(args[3]),
                    Long.parseLong(args[4]));
        } catch (Throwable t) {
            t.printStackTrace();
            say(ERROR + " " + t);
            System.exit(1);
        }
    }

    private static void run(Path runDir, int generation, boolean work, long seed, long preparePauseMillis)
            throws Exception {
        Path objectStore = runDir.resolve("narayana");
        Narayana.configure(objectStore);
        boolean fresh = !Files.exists(runDir.resolve("derive"));

        DeriveResourceAdapter adapter = new DeriveResourceAdapter();
        adapter.start(null);
        DeriveManagedConnectionFactory factory = new DeriveManagedConnectionFactory();
        factory.setDatabaseName("xacrash");
        factory.setDefaultHost("derby");
        factory.setWriteLockTimeoutMillis(5_000L);
        factory.setDatabaseDirectory(runDir.resolve("derive").toAbsolutePath().toString());
        factory.setResourceAdapter(adapter);

        EmbeddedXADataSource derby = new EmbeddedXADataSource();
        derby.setDatabaseName(runDir.resolve("derby").toAbsolutePath().toString());
        derby.setCreateDatabase("create");

        recover(factory, derby, objectStore);

        DeriveManagedConnection mc = (DeriveManagedConnection) factory.createManagedConnection(null, null);
        DeriveConnection derive = (DeriveConnection) mc.getConnection(null, null);
        XAConnection derbyXa = derby.getXAConnection();
        Connection ledger = derbyXa.getConnection();
        if (fresh) {
            createSchema(derive, ledger);
        }
        report(derive, ledger);
        say(READY);
        if (work) {
            work(generation, new Random(seed), mc.getXAResource(), derive,
                    new PausingXAResource(derbyXa.getXAResource(), preparePauseMillis), ledger);
        }
        say(DONE);
        adapter.stop();
        System.exit(0);
    }

    /**
     * Lists both resources' in-doubt branches before anything decides them (the parent counts a
     * kill inside Derive's window by the first list) and how many decisions Narayana's log holds,
     * lets Narayana decide them, and rolls back
     * what it leaves in doubt once its log holds no undecided transaction.
     */
    private static void recover(DeriveManagedConnectionFactory factory, EmbeddedXADataSource derby, Path objectStore)
            throws Exception {
        DeriveManagedConnection recoveryConnection = (DeriveManagedConnection) factory.createManagedConnection(null, null);
        XAConnection derbyRecovery = derby.getXAConnection();
        XAResource deriveXa = recoveryConnection.getXAResource();
        XAResource derbyXa = derbyRecovery.getXAResource();
        for (Xid xid : inDoubt(deriveXa)) {
            say(IN_DOUBT + " " + DERIVE + " " + gtrid(xid));
        }
        for (Xid xid : inDoubt(derbyXa)) {
            say(IN_DOUBT + " " + DERBY + " " + gtrid(xid));
        }
        say(LOGGED + " " + Narayana.loggedTransactions(objectStore));
        Narayana.recover(deriveXa, derbyXa);
        long logged = Narayana.loggedTransactions(objectStore);
        if (logged > 0) {
            if (inDoubt(deriveXa).length > 0 || inDoubt(derbyXa).length > 0) {
                throw new IllegalStateException(logged + " transaction(s) still in Narayana's log after recovery");
            }
            // The kill fell after both resources committed and before Narayana removed its record:
            // no resource knows the branches any more, so Narayana keeps the record forever; it is
            // done, and the next generation must not count it as a decision.
            Narayana.deleteLoggedTransactions(objectStore);
        }
        // With an empty log a branch still in doubt has no commit decision anywhere: presumed abort.
        rollBackOrphans(DERIVE, deriveXa);
        rollBackOrphans(DERBY, derbyXa);
        recoveryConnection.destroy();
        derbyRecovery.close();
    }

    private static void rollBackOrphans(String resource, XAResource xa) throws XAException {
        for (Xid xid : inDoubt(xa)) {
            say(ORPHAN + " " + resource + " " + gtrid(xid));
            xa.rollback(xid);
        }
    }

    private static Xid[] inDoubt(XAResource xa) throws XAException {
        return xa.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
    }

    static String gtrid(Xid xid) {
        return HexFormat.of().formatHex(xid.getGlobalTransactionId());
    }

    private static void createSchema(DeriveConnection derive, Connection ledger) throws SQLException {
        derive.execute("create table src (id integer primary key, grp integer not null, amt integer not null)");
        for (View view : VIEWS) {
            derive.execute("create materialized view " + view.name() + " as " + view.body());
        }
        try (Statement s = ledger.createStatement()) {
            s.execute("create table ledger (id integer primary key, amt integer not null)");
        }
    }

    /** Prints each resource's rows and, for each view, whether its rows equal its body's. */
    private static void report(DeriveConnection derive, Connection ledger) throws SQLException {
        say(ROWS + " " + DERIVE + " " + canonical(derive.query("select id, amt from src").stream().map(Row::values).toList()));
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = ledger.createStatement(); ResultSet r = s.executeQuery("select id, amt from ledger")) {
            while (r.next()) {
                rows.add(List.of(r.getLong(1), r.getLong(2)));
            }
        }
        say(ROWS + " " + DERBY + " " + canonical(rows));
        for (View view : VIEWS) {
            List<Row> stored = derive.query("select " + view.columns() + " from " + view.name());
            List<Row> body = derive.query(view.body());
            boolean equal = canonical(stored.stream().map(Row::values).toList())
                    .equals(canonical(body.stream().map(Row::values).toList()));
            say(VIEW + " " + view.name() + " " + equal + " " + stored.size());
        }
    }

    /** Rows as numbers, sorted: {@code id:amt;id:amt;…} whatever their order and numeric type. */
    private static String canonical(List<List<Object>> rows) {
        return rows.stream()
                .map(r -> r.stream().map(v -> Long.toString(((Number) v).longValue())).collect(Collectors.joining(":")))
                .sorted().collect(Collectors.joining(";"));
    }

    /**
     * Two-resource transactions, one after another: each inserts a row with its id into both
     * resources and adds one to the amount of a row committed earlier in both, then commits
     * through Narayana; {@code ACK id} follows only a commit that returned.
     */
    private static void work(int generation, Random random, XAResource deriveXa, DeriveConnection derive,
            XAResource derbyXa, Connection ledger) throws Exception {
        TransactionManager tm = com.arjuna.ats.jta.TransactionManager.transactionManager();
        List<Integer> committed = new ArrayList<>();
        try (PreparedStatement insert = ledger.prepareStatement("insert into ledger values (?, ?)");
                PreparedStatement update = ledger.prepareStatement("update ledger set amt = amt + 1 where id = ?")) {
            for (int n = 1; ; n++) {
                int id = generation * 100_000 + n;
                int amt = random.nextInt(100);
                tm.begin();
                TransactionImple tx = (TransactionImple) tm.getTransaction();
                say(BEGIN + " " + id + " " + gtrid(tx.getTxId()));
                tx.enlistResource(deriveXa);
                tx.enlistResource(derbyXa);
                derive.execute("insert into src values (?, ?, ?)", id, id % 7, amt);
                insert.setInt(1, id);
                insert.setInt(2, amt);
                insert.executeUpdate();
                if (!committed.isEmpty()) {
                    int earlier = committed.get(random.nextInt(committed.size()));
                    derive.execute("update src set amt = amt + 1 where id = ?", earlier);
                    update.setInt(1, earlier);
                    update.executeUpdate();
                }
                tm.commit();
                say(ACK + " " + id);
                committed.add(id);
                Thread.sleep(random.nextInt(20));
            }
        }
    }

    /** One write of a whole line, so that a kill never leaves half a line the parent could misread. */
    static synchronized void say(String line) {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        protocol.write(bytes, 0, bytes.length);
        protocol.flush();
    }

    /** The parent keeps our standard input open; its end means the parent is gone. */
    private static void haltWhenTheParentDies() {
        Thread watcher = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing is ever sent; only the end matters
                }
            } catch (java.io.IOException e) {
                // treated as the end
            }
            Runtime.getRuntime().halt(3);
        }, "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }
}
