package io.derive.engine.mv;

import io.derive.engine.plan.PlanAnalysis;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.ForeignKey;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The join half of the coverage proof (seed "Covering structures", join decomposition): a body
 * {@code from t [left] join p on <t col = p col, …>} gives exactly one row per row of t when
 * <ul>
 *   <li>no t row is lost (≥1): t is the preserved side of a left join, or the join is inner and
 *   its equalities are exactly a declared {@code FOREIGN KEY} from NOT NULL columns of t to p's
 *   primary key, so every t row has its parent while that foreign key is enforced;</li>
 *   <li>no t row fans out (≤1): the equalities equate p's whole primary key, under its collation.</li>
 * </ul>
 * Read from the body's text, not the plan (the planner reorders inner joins and pushes
 * conjuncts down), with t written first so its columns are the first slots of the joined row,
 * as they are of t's own scan. Anything else is doubt, and doubt is "not covering".
 */
final class JoinDecomposition {
    private JoinDecomposition() {
    }

    /**
     * What was proved.
     *
     * @param qualifier      the name t's columns are qualified with in the body
     * @param reliesOnForeignKey true for the inner join, whose rows are t's only while the foreign key is enforced
     */
    record Proof(String qualifier, boolean reliesOnForeignKey) {
    }

    /**
     * The proof that {@code body} (bound to {@code plan}) joins {@code t} 1:1 to one lookup table;
     * a bag t, keyed by its hidden rowid, is left to the single-table shape (doubt, not a proof).
     */
    static Optional<Proof> prove(Select body, PlanNode plan, TableSchema t, Catalog catalog) {
        if (!body.with().isEmpty() || !body.compounds().isEmpty() || body.isGrouped() || body.distinct()
                || body.limit() != null || body.offset() != null || !(body.from() instanceof Select.Join j)
                || j.natural() || !j.using().isEmpty() || j.condition() == null
                || (j.kind() != Select.JoinKind.INNER && j.kind() != Select.JoinKind.LEFT)
                || !(j.left() instanceof Select.NamedTable left) || !(j.right() instanceof Select.NamedTable right)
                || !plainJoin(plan)) {
            return Optional.empty();
        }
        Map<String, TableSchema> sources = new LinkedHashMap<>();
        BodyAnalysis.collectSources(plan, sources);
        TableSchema p = null;
        for (TableSchema s : sources.values()) {
            p = s.key().equals(t.key()) ? p : s;
        }
        if (sources.size() != 2 || !sources.containsKey(t.key()) || p == null || t.isBag() || p.isBag()
                || !names(left, t) || !names(right, p)) {
            return Optional.empty();
        }
        String tName = qualifier(left);
        List<int[]> pairs = equiPairs(j.condition(), tName, t, qualifier(right), p);
        if (pairs == null || !fullKey(pairs, p)) {
            return Optional.empty(); // a lookup row per t row at most only when p's whole key is equated
        }
        if (j.kind() == Select.JoinKind.LEFT) {
            return Optional.of(new Proof(tName, false));
        }
        return foreignKey(pairs, t, p, catalog) ? Optional.of(new Proof(tName, true)) : Optional.empty();
    }

    /** Below the body's projection only the join itself: no aggregate, distinct, limit, apply or set operation. */
    private static boolean plainJoin(PlanNode plan) {
        PlanNode top = plan instanceof PlanNode.Sort s ? s.input() : plan;
        return top instanceof PlanNode.Project project && onlyJoinNodes(project.input());
    }

    private static boolean onlyJoinNodes(PlanNode node) {
        if (!(node instanceof PlanNode.Join || node instanceof PlanNode.Filter || node instanceof PlanNode.Project
                || node instanceof PlanNode.TableScan || node instanceof PlanNode.IndexScan)) {
            return false;
        }
        return PlanAnalysis.inputs(node).stream().allMatch(JoinDecomposition::onlyJoinNodes);
    }

    private static boolean names(Select.NamedTable ref, TableSchema table) {
        return ref.name().name().equalsIgnoreCase(table.name())
                && (ref.name().schema() == null || ref.name().schema().equalsIgnoreCase(table.schema()));
    }

    private static String qualifier(Select.NamedTable ref) {
        return ref.alias() != null ? ref.alias() : ref.name().name();
    }

    /**
     * The {@code on} condition as pairs {t column, p column}, when it is nothing but such
     * equalities between same-typed, same-collated columns (so each compares as p's key and the
     * foreign key do); null otherwise.
     */
    private static List<int[]> equiPairs(Expr on, String tName, TableSchema t, String pName, TableSchema p) {
        if (on == null) {
            return null;
        }
        List<int[]> pairs = new ArrayList<>();
        for (Expr c : Expr.conjuncts(on)) {
            if (!(c instanceof Expr.Binary b) || !b.operator().equals("=") || !(b.left() instanceof Expr.ColumnRef l)
                    || !(b.right() instanceof Expr.ColumnRef r)) {
                return null;
            }
            int[] pair = pair(l, r, tName, t, pName, p);
            pair = pair != null ? pair : pair(r, l, tName, t, pName, p);
            if (pair == null) {
                return null;
            }
            ColumnSchema tc = t.columns().get(pair[0]);
            ColumnSchema pc = p.columns().get(pair[1]);
            if (tc.type() != pc.type() || tc.collation() != pc.collation()) {
                return null;
            }
            pairs.add(pair);
        }
        return pairs;
    }

    private static int[] pair(Expr.ColumnRef tSide, Expr.ColumnRef pSide, String tName, TableSchema t, String pName,
                              TableSchema p) {
        int tc = resolve(tSide, tName, t, pName, p);
        int pc = resolve(pSide, pName, p, tName, t);
        return tc < 0 || pc < 0 ? null : new int[] {tc, pc};
    }

    /**
     * The column of {@code table} a reference names: qualified by the table's name in the body,
     * or bare and a column of this table only (a bare name both tables have is ambiguous); -1 otherwise.
     */
    private static int resolve(Expr.ColumnRef ref, String name, TableSchema table, String otherName, TableSchema other) {
        if (ref.table() != null) {
            return ref.table().equalsIgnoreCase(name) && !name.equalsIgnoreCase(otherName)
                    ? table.columnIndex(ref.column()).orElse(-1) : -1;
        }
        return other.columnIndex(ref.column()).isPresent() ? -1 : table.columnIndex(ref.column()).orElse(-1);
    }

    private static boolean fullKey(List<int[]> pairs, TableSchema p) {
        return p.primaryKey().stream().allMatch(k -> pairs.stream().anyMatch(pair -> pair[1] == k.column()));
    }

    /**
     * Whether the equalities are exactly a foreign key of t over NOT NULL columns referencing p's
     * primary key (an extra equality could drop a t row whose parent differs there), and nothing
     * can make a t row's parent appear only after the row was written in the same statement.
     *
     * <p>The foreign key is checked at statement end, so mid-statement a t row may lack its parent
     * and be missing from the join; were the statement then to succeed, the parent must have
     * appeared later in it, and a conflict check in between could have missed the row. A parent
     * key appears in p only through a write to p: the statement's own (whose actions reach t's
     * rows only as a cascade to a key p already holds, or as a delete; a {@code set default}
     * could point at a key yet to come, so it is refused), or one cascaded to p, which cannot
     * happen when p is a plain table declaring no foreign key. t must be a plain table too (a
     * maintained t is written by maintenance, whose foreign keys are checked later still).
     */
    private static boolean foreignKey(List<int[]> pairs, TableSchema t, TableSchema p, Catalog catalog) {
        if (t.isMaintained() || p.isMaintained() || !p.constraints().foreignKeys().isEmpty()) {
            return false;
        }
        List<ForeignKey> toP = new ArrayList<>();
        for (ForeignKey fk : t.constraints().foreignKeys()) {
            Optional<TableSchema> parent = catalog.table(fk.parentSchema(), fk.parentTable());
            if (parent.isPresent() && parent.get().key().equals(p.key())) {
                toP.add(fk);
            }
        }
        if (toP.size() != 1 || toP.get(0).onDelete() == ForeignKey.Action.SET_DEFAULT
                || toP.get(0).onUpdate() == ForeignKey.Action.SET_DEFAULT) {
            return false; // a second key to p could rewrite a t row while its parent under this one is away
        }
        ForeignKey fk = toP.get(0);
        if (fk.columns().size() != p.primaryKey().size() || pairs.size() != fk.columns().size()) {
            return false;
        }
        for (int i = 0; i < fk.columns().size(); i++) {
            int child = fk.columns().get(i);
            int referenced = fk.parentColumns().isEmpty() ? p.primaryKey().get(i).column()
                    : p.columnIndex(fk.parentColumns().get(i)).orElse(-1);
            if (!t.columns().get(child).notNull()
                    || pairs.stream().noneMatch(pair -> pair[0] == child && pair[1] == referenced)) {
                return false;
            }
        }
        return fullKey(pairs, p);
    }
}
