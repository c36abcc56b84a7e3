package io.derive.engine.mvtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random statements for a {@link CoveringTwin}: every way a write meets a UNIQUE conflict —
 * {@code insert}, {@code insert or ignore|replace|fail}, {@code replace}, {@code update}, {@code
 * update or replace|ignore}, upserts on the key and on the constraint ({@code do update} and
 * {@code do nothing}), multi-row inserts whose rows collide with each other — plus deletes and
 * transaction control. The value domains are a handful wide, so most writes meet a conflict.
 */
final class CoveringWorkload {

    private static final int KEYS = 24;
    private static final String[] B = {"'x'", "'y'", "'z'"};

    private final Random random;
    private final CoveringTwin twin;
    private final TransactionScript transactions;

    CoveringWorkload(Random random, CoveringTwin twin) {
        this.random = random;
        this.twin = twin;
        this.transactions = new TransactionScript(random);
    }

    MvWorkload.Step next() {
        return random.nextInt(100) < 6 ? transactions.next() : new MvWorkload.Step(MvWorkload.Kind.WRITE, write());
    }

    TransactionScript transactions() {
        return transactions;
    }

    private String write() {
        int k = random.nextInt(KEYS);
        return switch (random.nextInt(20)) {
            case 0, 1, 2 -> "insert into t values " + row(k);
            case 3 -> "insert into t values " + rows();
            case 4 -> "insert or ignore into t values " + rows();
            case 5 -> "insert or replace into t values " + rows();
            case 6 -> "replace into t values " + row(k);
            case 7 -> "insert or fail into t values " + rows();
            case 8 -> "insert into t values " + row(k) + " on conflict " + twin.conflictTarget()
                    + " do update set c = excluded.c + 1";
            case 9 -> "insert into t values " + row(k) + " on conflict " + twin.conflictTarget() + " do nothing";
            case 10 -> "insert into t values " + row(k) + " on conflict (k) do update set a = excluded.a, b = excluded.b";
            case 11 -> "insert into t values " + row(k) + " on conflict do nothing";
            case 12 -> "update t set a = " + a() + ", b = " + pick(B) + " where k = " + k;
            case 13 -> "update or replace t set a = " + a() + ", b = " + pick(B) + " where k = " + k;
            case 14 -> "update or ignore t set b = " + pick(B) + " where k between " + k + " and " + (k + 4);
            case 15 -> "update t set c = " + c() + " where k = " + k;
            case 16 -> "update or replace t set a = a + 1 where b = " + pick(B);
            case 17 -> "update t set k = " + random.nextInt(KEYS) + " where k = " + k;
            case 18 -> "delete from t where k = " + k;
            default -> "delete from t where a = " + random.nextInt(4);
        };
    }

    /** Two to four rows drawn from a small domain, so they often collide with each other too. */
    private String rows() {
        int n = 2 + random.nextInt(3);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(row(random.nextInt(KEYS)));
        }
        return String.join(", ", out);
    }

    private String row(int k) {
        return "(" + k + ", " + a() + ", " + pick(B) + ", " + c() + ")";
    }

    private String a() {
        return twin.nullableA() && random.nextInt(5) == 0 ? "NULL" : String.valueOf(random.nextInt(4));
    }

    /** Half the rows are outside a partial UNIQUE's scope. */
    private String c() {
        return random.nextInt(8) == 0 ? "NULL" : String.valueOf(random.nextInt(4) - 1);
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }
}
