package io.derive.engine.mvtest;

import java.util.ArrayList;
import java.util.List;

/**
 * The constraint world of the MV differential test (semantics §6): table-form maintained tables
 * whose declared CHECK, UNIQUE and FOREIGN KEY are claims over their derived rows, children that
 * reference a maintained table (cascade, restrict, no action), and an MV over a maintained table.
 *
 * <p>SQLite has no maintained tables, so its mirror keeps each one as a plain table written by
 * triggers on the source, row by row as Derive's per-row arm does (an update that keeps the key
 * and stays in the body updates in place; anything else deletes the old image and inserts the
 * new one; {@code recursive_triggers} makes a REPLACE delete first, as Derive's does). The
 * declared CHECKs and UNIQUEs become {@code raise(abort)} triggers rather than constraints,
 * because SQLite lets the outer statement's {@code or ignore|replace} override a trigger body's
 * conflict handling while Derive never masks a derived-row violation. The foreign key to the
 * plain parent is {@code deferrable initially deferred}, as Derive checks it at commit. So
 * "should this statement fail" is SQLite's own verdict on the same writes.
 */
final class ConstraintWorld {

    /** A declared constraint: its name and its SQL (a CHECK's expression, a UNIQUE's columns). */
    record Claim(String name, String sql) {
    }

    /** The plain table, and its key, that the last column of a maintained table references. */
    record Parent(String table, String key) {
        String references() {
            return " references " + table + " (" + key + ")";
        }
    }

    /**
     * One table-form maintained table over {@code t}.
     *
     * @param columns    the declared column names, the first being the key
     * @param columnDdl  the declared columns as both databases spell them
     * @param exprs      what each column derives from, over the source row {@code $}
     * @param where      the body's filter over {@code $}
     * @param checks     the declared CHECKs, over the columns
     * @param uniques    the declared UNIQUEs
     * @param parent     the parent the last column references, or null
     */
    record Maintained(String name, List<String> columns, String columnDdl, List<String> exprs, String where,
                      List<Claim> checks, List<Claim> uniques, Parent parent) {

        String body() {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                out.add(over(exprs.get(i), "t") + " as " + columns.get(i));
            }
            return "select " + String.join(", ", out) + " from t where " + over(where, "t");
        }

        String deriveDdl() {
            List<String> parts = new ArrayList<>(List.of(columnDdl + (parent == null ? "" : parent.references())));
            checks.forEach(c -> parts.add("constraint " + c.name() + " check (" + c.sql() + ")"));
            uniques.forEach(u -> parts.add("constraint " + u.name() + " unique (" + u.sql() + ")"));
            return "create table " + name + " (" + String.join(", ", parts) + ") maintained as " + body();
        }

        /** The mirror table, the source triggers that write it and the triggers that guard its claims. */
        List<String> sqliteDdl() {
            String fk = parent == null ? "" : parent.references() + " deferrable initially deferred";
            List<String> out = new ArrayList<>();
            out.add("create table " + name + " (" + columnDdl + fk + ")");
            out.addAll(sourceTriggers());
            out.add(claimTrigger("insert"));
            out.add(claimTrigger("update"));
            return out;
        }

        /**
         * A source insert or delete writes the row's image when it is in the body. A source update
         * whose row keeps its key and stays in the body updates the image in place; otherwise the
         * old image (if any) is deleted and the new one (if any) inserted — in that order, so a
         * row moving its key does not collide with itself.
         */
        private List<String> sourceTriggers() {
            String key = columns.get(0);
            String cols = String.join(", ", columns);
            String oldKey = over(exprs.get(0), "old");
            String stays = "(" + oldKey + " = " + over(exprs.get(0), "new") + " and " + in("old") + " and " + in("new") + ")";
            List<String> sets = new ArrayList<>();
            for (int i = 1; i < columns.size(); i++) {
                sets.add(columns.get(i) + " = " + over(exprs.get(i), "new"));
            }
            return List.of(
                    "create trigger " + name + "_ins after insert on t when " + in("new") + " begin insert into " + name
                            + " (" + cols + ") values (" + values("new") + "); end",
                    "create trigger " + name + "_del after delete on t when " + in("old") + " begin delete from " + name
                            + " where " + key + " = " + oldKey + "; end",
                    "create trigger " + name + "_upd after update on t begin"
                            + " update " + name + " set " + String.join(", ", sets) + " where " + key + " = " + oldKey
                            + " and " + stays + ";"
                            + " delete from " + name + " where " + key + " = " + oldKey + " and " + in("old")
                            + " and not " + stays + ";"
                            + " insert into " + name + " (" + cols + ") select " + values("new") + " where " + in("new")
                            + " and not " + stays + "; end");
        }

        /**
         * Aborts an {@code op} of the mirror whose new row breaks a CHECK (which passes on NULL) or
         * meets another row on a UNIQUE's columns (where NULLs are distinct, as {@code =} makes them).
         */
        private String claimTrigger(String op) {
            StringBuilder guard = new StringBuilder("create trigger " + name + "_claims_" + op + " before " + op
                    + " on " + name + " begin");
            for (Claim c : checks) {
                // The CHECK names the columns bare; the trigger reads them off the new row.
                String onNew = c.sql().replaceAll("\\b(" + String.join("|", columns) + ")\\b", "new.$1");
                guard.append(" select raise(abort, 'CHECK constraint failed: ").append(c.name())
                        .append("') where not coalesce(").append(onNew).append(", 1);");
            }
            for (Claim u : uniques) {
                List<String> same = new ArrayList<>();
                for (String col : u.sql().split(",\\s*")) {
                    same.add("o." + col + " = new." + col);
                }
                guard.append(" select raise(abort, 'UNIQUE constraint failed: ").append(u.name())
                        .append("') where exists (select 1 from ").append(name).append(" o where ")
                        .append(String.join(" and ", same)).append(" and o.").append(columns.get(0))
                        .append(" <> new.").append(columns.get(0)).append(");");
            }
            return guard.append(" end").toString();
        }

        /** Plain queries counting the rows of {@code rows} (the table, or its body) breaking a CHECK or a UNIQUE. */
        List<String> rowClaimProbes(String rows) {
            List<String> out = new ArrayList<>();
            checks.forEach(c -> out.add("select count(*) from " + rows + " where not (" + c.sql() + ")"));
            uniques.forEach(u -> out.add("select count(*) from (select " + u.sql() + " from " + rows + " where "
                    + String.join(" is not null and ", u.sql().split(",\\s*")) + " is not null group by " + u.sql()
                    + " having count(*) > 1) d"));
            return out;
        }

        /** Plain queries counting the rows of {@code rows} referencing a missing parent (checked at commit). */
        List<String> referenceProbes(String rows) {
            if (parent == null) {
                return List.of();
            }
            String ref = "x." + columns.get(columns.size() - 1);
            return List.of("select count(*) from " + rows + " x where " + ref + " is not null and not exists"
                    + " (select 1 from " + parent.table + " where " + parent.table + "." + parent.key + " = " + ref + ")");
        }

        private String in(String row) {
            return "coalesce(" + over(where, row) + ", 0)";
        }

        private String values(String row) {
            List<String> out = new ArrayList<>();
            exprs.forEach(e -> out.add(over(e, row)));
            return String.join(", ", out);
        }

        private static String over(String expr, String row) {
            return expr.replace("$.", row + ".");
        }
    }

    static final List<Maintained> MAINTAINED = List.of(
            new Maintained("m", List.of("k", "v", "n", "owner"),
                    "k integer primary key, v text, n integer, owner integer",
                    List.of("$.k", "$.v", "$.n", "$.owner"), "$.n is not null",
                    List.of(new Claim("positive", "n > 0")), List.of(new Claim("one_v", "v")), new Parent("p", "id")),
            new Maintained("m2", List.of("k", "g", "n2"),
                    "k integer primary key, g text, n2 integer",
                    List.of("$.k", "$.grp", "$.n * 2"), "$.grp is not null",
                    List.of(new Claim("small", "n2 < 24")), List.of(new Claim("g_n2", "g, n2")), null));

    /** The plain tables, in creation order, as both databases spell them. */
    static final List<String> PLAIN_DDL = List.of(
            "create table p (id integer primary key, label text)",
            "create table t (k integer primary key, v text, n integer, owner integer, grp text)");

    /** Children of {@code m}, created after it: one per parent-side action. */
    static final List<String> CHILD_DDL = List.of(
            "create table cc (id integer primary key, m_k integer references m (k) on delete cascade)",
            "create table rr (id integer primary key, m_k integer references m (k) on delete restrict)",
            "create table nn (id integer primary key, m_k integer references m (k))");

    /** An MV reading a maintained table, so a derived row cascades into a consumer. */
    static final String MV_NAME = "mg";
    static final String MV_BODY = "select owner, count(*) as c, sum(n) as s from m group by owner";

    static final List<String> TABLES = List.of("p", "t", "m", "m2", "cc", "rr", "nn", MV_NAME);

    /** References into {@code m}, which are immediate. */
    static final List<String> CHILD_PROBES = List.of(
            "select count(*) from cc where m_k is not null and not exists (select 1 from m where m.k = cc.m_k)",
            "select count(*) from rr where m_k is not null and not exists (select 1 from m where m.k = rr.m_k)",
            "select count(*) from nn where m_k is not null and not exists (select 1 from m where m.k = nn.m_k)");

    private ConstraintWorld() {
    }
}
