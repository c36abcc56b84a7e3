package io.derive.engine.mvtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Random statements for the {@link ConstraintWorld}: source writes that make a derived row break
 * a CHECK (n ≤ 0 into {@code m}, a large n into {@code m2}), collide on a declared UNIQUE (few
 * values of {@code v}, {@code grp} and {@code n}) or reference a missing parent (owners beyond
 * {@code p}'s keys), parent deletes and re-keys, writes to the children of {@code m}, and
 * transaction control. Multi-row writes change only columns whose claims do not depend on the
 * order rows are visited, so SQLite's row order and Derive's cannot disagree on a verdict.
 */
final class ConstraintWorkload {

    private static final int T_KEYS = 30;
    private static final int P_KEYS = 8;
    private static final int CHILD_KEYS = 10;
    private static final String[] V = {"'a'", "'b'", "'c'", "'d'", "'e'", "'f'", "'g'", "'h'", "'i'", "'j'", "'k'", "'l'",
            "NULL", "NULL", "NULL"};
    private static final String[] GRP = {"'x'", "'y'", "'z'", "NULL"};
    private static final String[] CHILDREN = {"cc", "rr", "nn"};

    private final Random random;
    private final TransactionScript transactions;

    ConstraintWorkload(Random random) {
        this.random = random;
        this.transactions = new TransactionScript(random);
    }

    /**
     * Parents first, so most derived rows find theirs, then a few source rows for the creates to
     * fill from (up to eight: few enough that a create sometimes finds no row breaking a claim).
     */
    List<String> seedRows() {
        List<String> out = new ArrayList<>();
        for (int id = 0; id < P_KEYS - 2; id++) {
            out.add("insert into p values (" + id + ", 'p" + id + "')");
        }
        for (int i = random.nextInt(9); i > 0; i--) {
            out.add("insert or ignore into t values " + tRow(random.nextInt(T_KEYS)));
        }
        return out;
    }

    MvWorkload.Step next() {
        return random.nextInt(100) < 7 ? transactions.next() : new MvWorkload.Step(MvWorkload.Kind.WRITE, write());
    }

    TransactionScript transactions() {
        return transactions;
    }

    private String write() {
        int k = random.nextInt(T_KEYS);
        return switch (random.nextInt(26)) {
            case 0, 1, 2 -> "insert into t values " + tRow(k);
            case 3 -> "insert into t values " + rows(2 + random.nextInt(3), () -> tRow(random.nextInt(T_KEYS)));
            case 4 -> "insert or ignore into t values " + rows(1 + random.nextInt(3), () -> tRow(random.nextInt(T_KEYS)));
            case 5 -> "insert or replace into t values " + tRow(k);
            case 6 -> "replace into t values " + tRow(k);
            case 7 -> "insert into t values " + tRow(k) + " on conflict (k) do update set n = excluded.n, v = excluded.v";
            case 8, 9 -> "update t set n = " + n() + " where k = " + k;
            case 10 -> "update t set v = " + pick(V) + " where k = " + k;
            case 11 -> "update t set owner = " + owner() + " where k = " + k;
            case 12 -> "update t set grp = " + pick(GRP) + " where k = " + k;
            case 13 -> "update t set k = " + random.nextInt(T_KEYS) + " where k = " + k;
            case 14 -> "update t set owner = " + owner() + " where owner = " + random.nextInt(P_KEYS);
            case 15, 24, 25 -> "delete from t where k = " + k;
            case 16 -> "delete from t where n > " + (6 + random.nextInt(8));
            case 17 -> "insert into p values (" + random.nextInt(P_KEYS) + ", 'q')";
            case 18 -> "delete from p where id = " + random.nextInt(P_KEYS);
            case 19 -> "update p set id = " + random.nextInt(P_KEYS) + " where id = " + random.nextInt(P_KEYS);
            case 20, 21 -> "insert into " + pick(CHILDREN) + " values (" + random.nextInt(CHILD_KEYS) + ", "
                    + (random.nextInt(8) == 0 ? "NULL" : String.valueOf(random.nextInt(T_KEYS))) + ")";
            case 22 -> "delete from " + pick(CHILDREN) + " where id = " + random.nextInt(CHILD_KEYS);
            default -> "update t set n = n + 1 where grp is null and owner = " + random.nextInt(P_KEYS);
        };
    }

    private String rows(int n, Supplier<String> row) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(row.get());
        }
        return String.join(", ", out);
    }

    private String tRow(int k) {
        return "(" + k + ", " + pick(V) + ", " + n() + ", " + owner() + ", " + pick(GRP) + ")";
    }

    /** Mostly 1..11; sometimes ≤ 0 (breaks {@code positive}), or 12 and up (breaks {@code small}), or NULL. */
    private String n() {
        int roll = random.nextInt(14);
        return roll == 0 ? "NULL" : String.valueOf(roll < 2 ? -random.nextInt(2) : roll < 12 ? roll : 12 + random.nextInt(3));
    }

    private String owner() {
        return random.nextInt(6) == 0 ? "NULL" : String.valueOf(random.nextInt(P_KEYS));
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }
}
