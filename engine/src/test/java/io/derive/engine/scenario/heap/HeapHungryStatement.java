package io.derive.engine.scenario.heap;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;

/**
 * A small-heap JVM's run, on the host its one argument names, of a statement that holds ever more
 * rows (an unbounded recursive common table), then of an ordinary one on the same session: prints
 * {@code error <code> <message>} for the first and {@code after <count>} for the second, what
 * {@link StatementHeapLimitSuite} reads.
 */
public final class HeapHungryStatement {
    private HeapHungryStatement() {
    }

    public static void main(String[] args) {
        try (Database db = Derive.open(DatabaseConfig.named("heap-hungry").withDefaultHost(args[0]));
             Session session = db.openSession()) {
            session.execute("create table t (k integer primary key)");
            session.execute("insert into t values (1), (2)");
            try {
                session.execute("""
                        with recursive s(i) as (select 1 union all select i + 1 from s)
                        select i, 'row ' || i from s
                        """);
                System.out.println("completed");
            } catch (DeriveException e) {
                System.out.println("error " + e.code() + " " + e.getMessage());
            }
            System.out.println("after " + session.execute("select count(*) from t").rows().get(0).values().get(0));
        }
    }
}
