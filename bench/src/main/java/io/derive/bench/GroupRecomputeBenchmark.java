package io.derive.bench;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.PreparedStatement;
import io.derive.engine.api.Result;
import io.derive.engine.api.Session;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * P2, how the per-row cost of maintaining a group-by view grows with its source: one autocommit
 * update by key of {@code src}, which feeds {@value #VIEW_BODY} over {@value #GROUPS} groups,
 * measured at each {@code rows}; the measure at the largest size is read against its floor, the
 * same measure at the smallest.
 *
 * <p>Row {@code k} is in group {@code k % GROUPS}, so each group holds {@code rows / GROUPS} rows.
 * Updates visit the groups in turn, two to a group: the first moves the group's current minimum
 * above its maximum (retracting an extreme, the case no running total can absorb), the second
 * nudges a row in the middle of the group by one (retracting nothing). To keep that true forever,
 * a group that has had {@code t} retractions holds exactly the values {@code 2t, 2t + 2, …} (the
 * middle row possibly one above its even value), and its minimum is on its {@code t % perGroup}-th
 * row. With {@code indexed} the source has an index on the group column followed by the aggregated
 * column, {@code (g, v)}: recomputing one group can seek its rows instead of scanning the table,
 * and the group arm's fast path finds a retracted minimum by one seek instead of reading the
 * group (semantics §4.2).
 */
// The 1M-row source and its index take a few hundred megabytes; a fixed heap keeps resizing out.
@Fork(jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class GroupRecomputeBenchmark {
    static final int GROUPS = 100;
    static final String VIEW_BODY = "select g, count(*) as n, sum(v) as total, min(v) as low, max(v) as high "
            + "from src group by g";
    static final String VIEW_ARM = "group recompute";

    @Param({"10000", "1000000"})
    public int rows;

    @Param({"true", "false"})
    public boolean indexed;

    /** Reachable from tests in this package, which check the view against its body. */
    Database database;
    private Session session;
    private PreparedStatement moveMinimumAboveMaximum;
    private PreparedStatement nudgeMiddleRow;
    private int perGroup;
    private long[] retractions;
    private long updates;

    /** The id of the {@code j}-th row of group {@code g}. */
    static long id(long g, long j) {
        return g + GROUPS * j;
    }

    @Setup(Level.Trial)
    public void openDatabase() throws Exception {
        // Fewer than four rows a group leaves no row strictly between the extremes to nudge.
        if (rows < 4 * GROUPS || rows % GROUPS != 0) {
            throw new IllegalArgumentException("rows must be a multiple of " + GROUPS + ", at least " + 4 * GROUPS);
        }
        perGroup = rows / GROUPS;
        database = Derive.open(DatabaseConfig.named("group-recompute-bench"));
        session = database.openSession();
        session.execute("""
                create table src (id integer primary key, g integer not null, v integer not null)
                """);
        PreparedStatement insert = session.prepare("insert into src (id, g, v) values (?, ?, ?)");
        session.begin();
        LoadProgress.load("src", rows, key -> insert.execute(key, key % GROUPS, 2 * (key / GROUPS)));
        session.commit();
        // Before the view: its group slice is planned when it is created, against the indexes of then.
        if (indexed) {
            session.execute("create index src_g_v on src (g, v)");
        }
        session.execute("create materialized view group_totals as " + VIEW_BODY);
        Object arm = session.execute("""
                select arm from materialized_views() where name = 'group_totals'
                """).rows().get(0).get(0);
        if (!VIEW_ARM.equals(arm)) {
            throw new IllegalStateException("group_totals is maintained by '" + arm + "', not by '" + VIEW_ARM + "'");
        }
        moveMinimumAboveMaximum = session.prepare("update src set v = ? where id = ?");
        nudgeMiddleRow = session.prepare("update src set v = v + 1 - 2 * (v % 2) where id = ?");
        retractions = new long[GROUPS];
        updates = 0;
    }

    @TearDown(Level.Trial)
    public void closeDatabase() {
        session.close();
        database.close();
    }

    @Benchmark
    public Result updateGroupedRow() {
        long n = updates++;
        int g = (int) (n / 2 % GROUPS);
        long t = retractions[g];
        if (n % 2 == 0) {
            retractions[g]++;
            return moveMinimumAboveMaximum.execute(2 * (t + perGroup), id(g, t % perGroup));
        }
        return nudgeMiddleRow.execute(id(g, (t + perGroup / 2) % perGroup));
    }
}
