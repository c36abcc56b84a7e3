package io.derive.engine.mv;

import io.derive.engine.plan.BoundExpr;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.Select;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Proves that a materialized view covers a unique index of its source (semantics §6, seed
 * "Covering structures"): the MV holds exactly one row per row the index governs, carries the
 * indexed columns and the source's primary key unchanged, and its backing key starts with the
 * indexed columns, so a key-prefix seek on the backing finds every row that could collide.
 *
 * <p>Recognition is narrow on purpose: a false "not covering" only forgoes the MV as the
 * enforcing structure, a false "covering" would miss a conflict. The single-table shape:
 * {@code select <index cols>, <pk cols> [, others] from t [where …] order by <the index columns
 * in any order>}, where the {@code where} is exactly the partial index's predicate plus, at
 * most, {@code c is not null} for indexed columns (rows with a NULL there never collide, as
 * NULLs are distinct). No aggregation, distinct, set operation or limit (each shows in the bound
 * plan as a node this walk does not accept). A join is accepted only as the 1:1 decomposition
 * {@link JoinDecomposition} proves, with t written first; its {@code where} is then read from the
 * body's text, bound over t's columns alone, so it may name t's columns only.
 */
final class CoverageProver {
    private CoverageProver() {
    }

    /**
     * The link when {@code mv}, whose body is bound to {@code plan} (against {@code catalog}),
     * covers {@code index} of {@code source}.
     */
    static Optional<CoveringLink> prove(TableSchema mv, PlanNode plan, TableSchema source, IndexSchema index,
                                        Catalog catalog) {
        if (!(plan instanceof PlanNode.Sort sort) || !(sort.input() instanceof PlanNode.Project project)) {
            return Optional.empty(); // a missing order by cannot seed the backing key with the indexed columns
        }
        PlanNode input = project.input();
        BoundExpr where = null;
        boolean reliesOnForeignKey = false;
        if (input instanceof PlanNode.Filter filter && scans(filter.input(), source)) {
            where = filter.predicate();
        } else if (!(input instanceof PlanNode.TableScan scan) || !scan.table().key().equals(source.key())
                || !scan.keyPrefix().isEmpty() || scan.isRange()) {
            Select body = mv.derivation().body();
            Optional<JoinDecomposition.Proof> join = JoinDecomposition.prove(body, plan, source, catalog);
            if (join.isEmpty()) {
                return Optional.empty();
            }
            reliesOnForeignKey = join.get().reliesOnForeignKey();
            where = body.where() == null ? null : ExpressionBinder.bind(body.where(), Scope.of(join.get().qualifier(),
                    new PlanNode.TableScan(source, List.of()).columns()));
        }
        int width = mv.columns().size();
        if (project.expressions().size() != width) {
            return Optional.empty(); // hidden sort columns: the order by is not over output columns
        }
        int[] keyOutputs = new int[source.primaryKey().size()];
        for (int i = 0; i < keyOutputs.length; i++) {
            keyOutputs[i] = passThrough(mv, project, source, source.primaryKey().get(i).column());
            if (keyOutputs[i] < 0) {
                return Optional.empty();
            }
        }
        Set<Integer> indexed = new HashSet<>();
        for (IndexSchema.IndexColumn c : index.columns()) {
            if (passThrough(mv, project, source, c.column()) < 0) {
                return Optional.empty();
            }
            indexed.add(c.column());
        }
        int[] prefixColumns = prefixColumns(mv, sort, project, indexed);
        if (prefixColumns == null || !predicateAligned(where, source, index, indexed)) {
            return Optional.empty();
        }
        return Optional.of(new CoveringLink(mv, index, prefixColumns, keyOutputs, reliesOnForeignKey));
    }

    private static boolean scans(PlanNode input, TableSchema source) {
        return input instanceof PlanNode.TableScan scan && scan.table().key().equals(source.key())
                || input instanceof PlanNode.IndexScan seek && seek.table().key().equals(source.key());
    }

    /**
     * The output position publishing source column {@code column} as it is (same collation as
     * the base column, else a coarser backing key could merge values the index keeps apart); -1
     * when there is none.
     */
    private static int passThrough(TableSchema mv, PlanNode.Project project, TableSchema source, int column) {
        for (int i = 0; i < project.expressions().size(); i++) {
            if (project.expressions().get(i) instanceof BoundExpr.ColumnSlot slot && slot.index() == column
                    && mv.columns().get(i).collation() == source.columns().get(column).collation()
                    && mv.columns().get(i).type() == source.columns().get(column).type()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * For each leading backing-key column, the source column it publishes, when the order by is
     * exactly a permutation of the indexed columns and seeds the backing key; null otherwise.
     */
    private static int[] prefixColumns(TableSchema mv, PlanNode.Sort sort, PlanNode.Project project, Set<Integer> indexed) {
        List<TableShape.KeyPart> backingKey = mv.primaryKey();
        if (sort.keys().size() != indexed.size() || backingKey.size() < indexed.size()) {
            return null;
        }
        Set<Integer> seen = new HashSet<>();
        int[] prefix = new int[indexed.size()];
        for (int i = 0; i < prefix.length; i++) {
            int output = sort.keys().get(i).column();
            if (output >= project.expressions().size() || backingKey.get(i).column() != output
                    || !(project.expressions().get(output) instanceof BoundExpr.ColumnSlot slot)
                    || !indexed.contains(slot.index()) || !seen.add(slot.index())) {
                return null;
            }
            prefix[i] = slot.index();
        }
        return prefix;
    }

    /**
     * Whether the body keeps exactly the rows the index governs: every conjunct of the partial
     * index's predicate, and besides them only {@code c is not null} on indexed columns.
     */
    private static boolean predicateAligned(BoundExpr where, TableSchema source, IndexSchema index, Set<Integer> indexed) {
        List<BoundExpr> required = List.of();
        if (index.where() != null) {
            Scope scope = Scope.of(source.name(), new PlanNode.TableScan(source, List.of()).columns());
            required = BoundExpr.conjuncts(ExpressionBinder.bind(index.where(), scope));
        }
        List<BoundExpr> present = BoundExpr.conjuncts(where);
        for (BoundExpr r : required) {
            if (present.stream().noneMatch(p -> same(p, r))) {
                return false;
            }
        }
        for (BoundExpr p : present) {
            if (required.stream().noneMatch(r -> same(p, r)) && !nullSkip(p, indexed)) {
                return false;
            }
        }
        return true;
    }

    private static boolean nullSkip(BoundExpr e, Set<Integer> indexed) {
        return e instanceof BoundExpr.Call c && c.operator().equals("notnull")
                && c.arguments().get(0) instanceof BoundExpr.ColumnSlot slot && indexed.contains(slot.index());
    }

    /** Structural equality, a column being the same slot whatever name it was written with. */
    private static boolean same(BoundExpr a, BoundExpr b) {
        if (a instanceof BoundExpr.ColumnSlot x && b instanceof BoundExpr.ColumnSlot y) {
            return x.index() == y.index();
        }
        if (a instanceof BoundExpr.Call x && b instanceof BoundExpr.Call y) {
            if (!x.operator().equals(y.operator()) || x.function() != y.function() || x.collation() != y.collation()
                    || x.arguments().size() != y.arguments().size()) {
                return false;
            }
            for (int i = 0; i < x.arguments().size(); i++) {
                if (!same(x.arguments().get(i), y.arguments().get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }
}
