package io.derive.engine.mvtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random statements over the catalog's sources: single and multi-row writes, writes that fail
 * midway (a duplicate key in a multi-row insert, a NOT NULL or foreign-key violation),
 * {@code insert or fail}, key-moving and no-op updates, and transaction control (begin, commit,
 * rollback, savepoints). Literals are inlined so a history replays as plain SQL. Key domains are
 * small, which bounds every table at a few dozen rows.
 */
public final class MvWorkload {

    /** What a statement is, so the runner knows which transaction state follows when it succeeds. */
    public enum Kind { WRITE, BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO, RELEASE }

    public record Step(Kind kind, String sql) {
    }

    private static final int A_KEYS = 40;
    private static final int B_KEYS = 40;
    private static final int C_KEYS = 15;
    private static final String[] G = {"'x'", "'y'", "'z'", "NULL"};
    private static final String[] W = {"'p'", "'q'", "'r'", "'s'", "'P'"};
    private static final String[] TAG = {"'t'", "'u'", "NULL"};

    private final Random random;
    private final TransactionScript transactions;

    public MvWorkload(Random random) {
        this.random = random;
        this.transactions = new TransactionScript(random);
    }

    /** Statements that give each source some rows before the MVs are created. */
    public List<String> seedRows() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            out.add("insert or ignore into a values " + aRow(random.nextInt(A_KEYS), false));
            out.add("insert or ignore into c values " + cRow(random.nextInt(C_KEYS)));
        }
        for (int i = 0; i < 20; i++) {
            out.add("insert or ignore into b select " + random.nextInt(B_KEYS) + ", id, " + x() + ", " + pick(TAG)
                    + " from a where id = " + random.nextInt(A_KEYS));
        }
        return out;
    }

    /** The next statement; {@link #succeeded} must follow when it ran without error. */
    public Step next() {
        int roll = random.nextInt(100);
        if (roll < 6) {
            return transactions.next();
        }
        return new Step(Kind.WRITE, write(roll));
    }

    /** Moves the transaction state after a statement that succeeded. */
    public void succeeded(Step step) {
        transactions.ran(step, true);
    }

    public boolean inTransaction() {
        return transactions.inTransaction();
    }

    /** The statement that ends an open transaction, to finish a run. */
    public Step end() {
        return random.nextBoolean() ? TransactionScript.commit() : new Step(Kind.ROLLBACK, "rollback");
    }

    private String write(int roll) {
        int id = random.nextInt(A_KEYS);
        return switch (roll % 26) {
            case 0, 1 -> "insert into a values " + aRow(id, random.nextInt(20) == 0);
            case 2 -> "insert into a values " + rows(2 + random.nextInt(3), () -> aRow(random.nextInt(A_KEYS), random.nextInt(30) == 0));
            case 3 -> "insert or fail into a values " + rows(2 + random.nextInt(3), () -> aRow(random.nextInt(A_KEYS), false));
            case 4 -> "insert or ignore into a values " + rows(1 + random.nextInt(3), () -> aRow(random.nextInt(A_KEYS), false));
            case 5 -> "update a set v = v + " + (random.nextInt(7) - 3) + " where id = " + id;
            case 6 -> "update a set g = " + pick(G) + ", h = " + h() + " where id between " + id + " and " + (id + random.nextInt(6));
            case 7 -> "update a set id = " + random.nextInt(A_KEYS) + " where id = " + id;
            case 8 -> "update a set v = v, g = g where id >= " + id;
            case 9 -> "update a set w = " + pick(W) + " where h = " + random.nextInt(5);
            case 10 -> "update a set w = " + (random.nextInt(4) == 0 ? "NULL" : pick(W)) + ", v = " + v() + " where id = " + id;
            case 11 -> "delete from a where id = " + id;
            case 12 -> "delete from a where v > " + (8 + random.nextInt(5));
            case 13, 14 -> "insert into b values " + bRow(random.nextInt(B_KEYS));
            case 15 -> "insert into b values " + rows(2 + random.nextInt(2), () -> bRow(random.nextInt(B_KEYS)));
            case 16 -> "update b set x = " + x() + ", a_id = " + random.nextInt(A_KEYS) + " where id = " + random.nextInt(B_KEYS);
            case 17 -> "update b set tag = " + pick(TAG) + " where a_id < " + random.nextInt(A_KEYS);
            case 18 -> "delete from b where a_id = " + id;
            case 19 -> "insert or replace into c values " + rows(1 + random.nextInt(3), () -> cRow(random.nextInt(C_KEYS)));
            case 20 -> "update c set n = " + random.nextInt(4) + " where k = " + random.nextInt(C_KEYS);
            case 21 -> "update c set k = " + random.nextInt(C_KEYS) + " where k = " + random.nextInt(C_KEYS);
            case 22 -> "delete from c where k = " + random.nextInt(C_KEYS);
            case 23 -> "insert into a values " + aRow(id, false) + " on conflict (id) do update set v = excluded.v + 1, g = excluded.g";
            case 24 -> "replace into a values " + aRow(id, false);
            default -> "insert into c values " + rows(1 + random.nextInt(2), () -> cRow(random.nextInt(C_KEYS)));
        };
    }

    private String rows(int n, java.util.function.Supplier<String> row) {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(row.get());
        }
        return String.join(", ", rows);
    }

    private String aRow(int id, boolean nullW) {
        return "(" + id + ", " + pick(G) + ", " + h() + ", " + v() + ", " + (nullW ? "NULL" : pick(W)) + ")";
    }

    private String bRow(int id) {
        return "(" + id + ", " + random.nextInt(A_KEYS) + ", " + x() + ", " + pick(TAG) + ")";
    }

    private String cRow(int k) {
        return "(" + k + ", " + random.nextInt(4) + ")";
    }

    private String h() {
        return random.nextInt(6) == 0 ? "NULL" : String.valueOf(random.nextInt(5));
    }

    private String v() {
        return random.nextInt(8) == 0 ? "NULL" : String.valueOf(random.nextInt(16) - 3);
    }

    private String x() {
        return random.nextInt(6) == 0 ? "NULL" : String.valueOf(random.nextInt(10));
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }
}
