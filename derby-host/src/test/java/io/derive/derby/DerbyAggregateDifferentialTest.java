package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The differential of {@link DerbyAggregate}: random aggregates of the subset Derby computes, over
 * random rows with NULLs, texts with trailing blanks and integers near the 64-bit ends, answer
 * exactly what the engine answers when it reads the rows itself — the same rows, or the same
 * error. The engine's side is the same query with every column {@code c} written {@code c + 0},
 * which is no column, so the engine groups it.
 */
class DerbyAggregateDifferentialTest {
    private static final int DATABASES = 30;
    private static final int QUERIES = 40;
    private static final String[] INTEGERS = {"a", "b", "c"};
    private static final String[] TEXTS = {"x", "x ", " x", "", "x  ", "y"};
    /** Near the ends, and small: whether a sum of them overflows depends on the order of adding. */
    private static final long[] EDGES = {Long.MAX_VALUE - 2, Long.MIN_VALUE + 2, Long.MAX_VALUE, 3, -3, 1, -1};

    @Test
    void everyOfferedAggregateAnswersAsTheEngineDoes() {
        Random random = new Random(20261206L);
        long offered = 0;
        long computed = 0;
        for (int d = 0; d < DATABASES; d++) {
            DerbyTableModule module = new DerbyTableModule();
            Database db = Derive.open(DatabaseConfig.named("derby-aggregate-diff-" + d).withDefaultHost("derby").withModule(module));
            try (Session session = db.openSession()) {
                fill(session, random, d % 3 == 0);
                for (int q = 0; q < QUERIES; q++) {
                    String query = query(random);
                    long before = module.aggregatesComputedByDerby();
                    Object byDerby = outcome(session, query);
                    computed += module.aggregatesComputedByDerby() - before;
                    offered++;
                    Object byEngine = outcome(session, query.replaceAll("\\b([abc])\\b(?!')", "$1 + 0"));
                    assertThat(byDerby).as(query).isEqualTo(byEngine);
                }
            } finally {
                db.close();
            }
        }
        assertThat(computed).as("aggregates Derby computed, of " + offered).isGreaterThan(offered / 2);
    }

    /** Rows with NULLs everywhere but the key; in a third of the databases, integers near the 64-bit ends. */
    private static void fill(Session session, Random random, boolean edges) {
        session.execute("create table d (id integer primary key, a integer, b integer, c integer, t text)");
        // A flush writes in key order: where sums may overflow, a commit per row makes Derby's
        // order of the rows (the order it adds them in) differ from the key order the engine adds in.
        if (!edges) {
            session.begin();
        }
        int rows = random.nextInt(edges ? 12 : 300);
        for (int id = 0; id < rows; id++) {
            session.execute("insert into d values (?, ?, ?, ?, ?)", random.nextInt(1_000_000) * 1_000L + id,
                    maybeNull(random, (long) random.nextInt(5)),
                    maybeNull(random, edges ? EDGES[random.nextInt(EDGES.length)] : random.nextInt(2_000) - 1_000L),
                    maybeNull(random, random.nextLong()),
                    maybeNull(random, TEXTS[random.nextInt(TEXTS.length)]));
        }
        if (!edges) {
            session.commit();
        }
    }

    private static Object maybeNull(Random random, Object value) {
        return random.nextInt(6) == 0 ? null : value;
    }

    /** An aggregate of the offered subset: integer groups, then count, sum, min, max of columns. */
    private static String query(Random random) {
        List<String> groups = new ArrayList<>();
        for (String column : INTEGERS) {
            if (random.nextInt(3) == 0) {
                groups.add(column);
            }
        }
        List<String> select = new ArrayList<>(groups);
        int calls = 1 + random.nextInt(4);
        for (int i = 0; i < calls; i++) {
            String column = INTEGERS[random.nextInt(INTEGERS.length)];
            select.add(switch (random.nextInt(6)) {
                case 0 -> "count(*)";
                case 1 -> "count(" + (random.nextBoolean() ? column : "t") + ")";
                case 2, 3 -> "sum(" + column + ")";
                case 4 -> "min(" + column + ")";
                default -> "max(" + column + ")";
            });
        }
        return "select " + String.join(", ", select) + " from d" + (groups.isEmpty() ? "" : " group by " + String.join(", ", groups));
    }

    /** The rows, in the order the query gives them, or the error's message. */
    private static Object outcome(Session session, String sql) {
        try {
            return session.execute(sql).rows().stream().map(Row::values).toList();
        } catch (DeriveException e) {
            return e.getMessage();
        }
    }
}
