package io.derive.engine.mvtest;

import java.util.List;

/**
 * The shapes of the covering twin (semantics §6): a table whose UNIQUE constraint a covering MV
 * can answer, the MV ({@code select uc-columns, pk from t [where …] order by uc-columns}), and the
 * one spelling of the upsert target that names the constraint.
 *
 * @param table        the table's DDL and any index after it, identical on both twins
 * @param coveringBody the covering MV's body, created on one twin only
 * @param conflictTarget the {@code on conflict} target naming the UNIQUE
 * @param claimProbe   a plain query counting pairs of rows that break the UNIQUE
 * @param nullableA    whether the constrained column {@code a} takes NULLs
 */
public record CoveringTwin(String name, List<String> table, String coveringBody, String conflictTarget, String claimProbe,
                           boolean nullableA) {

    public static final List<CoveringTwin> VARIANTS = List.of(
            new CoveringTwin("covering_full",
                    List.of("create table t (k integer primary key, a integer not null, b text not null, c integer, unique (a, b))"),
                    "select a, b, k from t order by a, b", "(a, b)",
                    "select count(*) from t x join t y on x.a = y.a and x.b = y.b and x.k < y.k", false),
            // The view's order permutes the constraint's columns; a key-prefix seek must follow it.
            new CoveringTwin("covering_permuted",
                    List.of("create table t (k integer primary key, a integer not null, b text not null, c integer, unique (a, b))"),
                    "select b, a, k from t order by b, a", "(a, b)",
                    "select count(*) from t x join t y on x.a = y.a and x.b = y.b and x.k < y.k", false),
            // A nullable constrained column: NULLs are distinct, so the MV skips them.
            new CoveringTwin("covering_null_skip",
                    List.of("create table t (k integer primary key, a integer, b text not null, c integer, unique (a, b))"),
                    "select a, b, k from t where a is not null order by a, b", "(a, b)",
                    "select count(*) from t x join t y on x.a = y.a and x.b = y.b and x.k < y.k", true),
            // A partial UNIQUE index: only rows with c > 0 collide, and only those are in the MV.
            new CoveringTwin("covering_partial",
                    List.of("create table t (k integer primary key, a integer not null, b text not null, c integer)",
                            "create unique index t_ab on t (a, b) where c > 0"),
                    "select a, b, k from t where c > 0 order by a, b", "(a, b) where c > 0",
                    "select count(*) from t x join t y on x.a = y.a and x.b = y.b and x.k < y.k where x.c > 0 and y.c > 0", false));

    public static List<String> names() {
        return VARIANTS.stream().map(CoveringTwin::name).toList();
    }

    public static CoveringTwin named(String name) {
        return VARIANTS.stream().filter(v -> v.name.equals(name)).findFirst().orElseThrow();
    }
}
