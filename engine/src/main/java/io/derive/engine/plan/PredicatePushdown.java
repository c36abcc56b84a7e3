package io.derive.engine.plan;

import io.derive.engine.types.Collation;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Filters one source of a {@code from} clause, moving the filter's conjuncts as deep into the
 * source's plan as they keep their meaning, so that a derived table, a view or a common table
 * reads its tables through key and index seeks (chosen by {@link AccessPath}) instead of whole.
 *
 * <p>The filter itself always stays above the source: what is pushed is a copy that only drops
 * rows the filter would drop, so each step below need only keep that promise for the rows of
 * the node it passes.
 *
 * <p>Pushed: a conjunct that is deterministic, holds no subquery and no reference to an
 * enclosing row, and reads at least one column. It passes a {@link PlanNode.Project} by
 * substituting the projected expressions (only when they are deterministic and hold no
 * subquery or enclosing-row reference), a {@link PlanNode.Filter} and a {@link PlanNode.Sort}
 * unchanged, an inner {@link PlanNode.Join} into the side it reads (a left join: into its left
 * side only, a full join: neither; never into the looked-up side of a lookup join),
 * {@code union all} into both sides. Where rows are merged as equal — {@link PlanNode.Aggregate}
 * (only over its group keys, and never without keys, which yields a row even for no input),
 * {@link PlanNode.Distinct}, {@code union}, {@code intersect}, {@code except} — only a conjunct that cannot tell merged rows
 * apart passes: comparisons of one column with values free of the row under the collation
 * the rows are merged by, null tests, and {@code and}/{@code or}/{@code not} of them; anything
 * else (say {@code typeof(x)}, which tells 1 from 1.0) could change which row represents a
 * group. Nothing passes a {@link PlanNode.Limit}, a lateral {@link PlanNode.Apply}, a recursive
 * union or a table function. Reaching a table, the conjuncts join its own filter and the seek
 * is chosen again, keeping its {@code indexed by} or {@code not indexed} clause.
 */
public final class PredicatePushdown {
    private PredicatePushdown() {
    }

    /** The rows of {@code source} that satisfy {@code predicate} (over its columns; null: all rows). */
    public static PlanNode filter(PlanNode source, BoundExpr predicate) {
        if (predicate == null) {
            return source;
        }
        if (isAccess(source)) {
            return access(source, BoundExpr.conjuncts(predicate));
        }
        return new PlanNode.Filter(push(source, pushable(predicate)), predicate);
    }

    private static List<BoundExpr> pushable(BoundExpr predicate) {
        List<BoundExpr> out = new ArrayList<>();
        for (BoundExpr c : BoundExpr.conjuncts(predicate)) {
            if (!Slots.read(c).isEmpty() && local(c)) {
                out.add(c);
            }
        }
        return out;
    }

    /** Deterministic and free of subqueries and enclosing rows: the same value wherever a row evaluates it. */
    private static boolean local(BoundExpr e) {
        if (!e.deterministic() || e instanceof BoundExpr.Subquery || e instanceof BoundExpr.OuterRef) {
            return false;
        }
        return !(e instanceof BoundExpr.Call c) || c.arguments().stream().allMatch(PredicatePushdown::local);
    }

    /**
     * {@code node} with those of {@code conjuncts} (over its columns) that may pass applied
     * inside it; the others are dropped, since the filter above applies them all.
     */
    private static PlanNode push(PlanNode node, List<BoundExpr> conjuncts) {
        if (conjuncts.isEmpty()) {
            return node;
        }
        if (isAccess(node)) {
            return access(node, conjuncts);
        }
        if (node instanceof PlanNode.Filter f) {
            return new PlanNode.Filter(push(f.input(), conjuncts), f.predicate());
        }
        if (node instanceof PlanNode.Sort s) {
            return new PlanNode.Sort(push(s.input(), conjuncts), s.keys());
        }
        if (node instanceof PlanNode.Project p) {
            return new PlanNode.Project(push(p.input(), substituted(conjuncts, p.expressions())), p.expressions(),
                    p.columns());
        }
        if (node instanceof PlanNode.Distinct d) {
            return new PlanNode.Distinct(push(d.input(), indistinguishing(conjuncts, collations(d.columns()))));
        }
        if (node instanceof PlanNode.Aggregate a) {
            return aggregate(a, conjuncts);
        }
        if (node instanceof PlanNode.SetOperation s) {
            List<BoundExpr> passing = s.operator() == PlanNode.SetOperator.UNION_ALL ? conjuncts
                    : indistinguishing(conjuncts, collations(s.columns()));
            return new PlanNode.SetOperation(s.operator(), push(s.left(), passing), push(s.right(), passing));
        }
        if (node instanceof PlanNode.Join j) {
            return join(j, conjuncts);
        }
        return node;
    }

    private static PlanNode aggregate(PlanNode.Aggregate a, List<BoundExpr> conjuncts) {
        int keys = a.groupKeys().size();
        if (keys == 0) {
            return a;
        }
        List<BoundExpr> onKeys = conjuncts.stream().filter(c -> Slots.read(c).length() <= keys).toList();
        List<Collation> grouping = a.groupKeys().stream().map(BoundExpr::collation).toList();
        PlanNode input = push(a.input(), substituted(indistinguishing(onKeys, grouping), a.groupKeys()));
        return new PlanNode.Aggregate(input, a.groupKeys(), a.aggregates(), a.columns());
    }

    /**
     * A filter on one side's columns above a join drops the same rows as that side filtered
     * first, except on the side an outer join pads with NULLs (a filtered-out row would come
     * back padded); a lookup join's right side must stay the table it seeks per row.
     */
    private static PlanNode join(PlanNode.Join j, List<BoundExpr> conjuncts) {
        if (j.type() == PlanNode.JoinType.FULL) {
            return j;
        }
        int leftWidth = j.left().columns().size();
        boolean intoRight = j.type() == PlanNode.JoinType.INNER && !j.lookup();
        List<BoundExpr> left = new ArrayList<>();
        List<BoundExpr> right = new ArrayList<>();
        for (BoundExpr c : conjuncts) {
            BitSet read = Slots.read(c);
            if (read.length() <= leftWidth) {
                left.add(c);
            } else if (intoRight && read.nextSetBit(0) >= leftWidth) {
                right.add(Slots.remap(c, i -> i - leftWidth));
            }
        }
        return new PlanNode.Join(push(j.left(), left), push(j.right(), right), j.type(), j.leftKeys(), j.rightKeys(),
                j.keyCollations(), j.condition(), j.lookup());
    }

    /** A table's rows as a scan or seek, with its filter, before the conjuncts join it. */
    private static boolean isAccess(PlanNode node) {
        PlanNode scan = node instanceof PlanNode.Filter f ? f.input() : node;
        return scan instanceof PlanNode.TableScan || scan instanceof PlanNode.IndexScan;
    }

    /**
     * The table's rows under its own filter and the conjuncts, seeking again where the seek came
     * from the filter alone: a scan, a whole-index scan ({@code indexed by}), or a key seek
     * {@link AccessPath} chose for that filter. A seek on an index is kept as it is, since it may
     * be the one {@code indexed by} asks for.
     */
    private static PlanNode access(PlanNode node, List<BoundExpr> conjuncts) {
        BoundExpr own = node instanceof PlanNode.Filter f ? f.predicate() : null;
        PlanNode scan = node instanceof PlanNode.Filter f ? f.input() : node;
        List<BoundExpr> all = new ArrayList<>(BoundExpr.conjuncts(own));
        all.addAll(conjuncts);
        BoundExpr combined = BoundExpr.and(all);
        if (scan instanceof PlanNode.TableScan s
                && (isWhole(s) || AccessPath.filteredScan(s.table(), own, s.notIndexed()).equals(node))) {
            return AccessPath.filteredScan(s.table(), combined, s.notIndexed());
        }
        if (scan instanceof PlanNode.IndexScan i && i.prefix().isEmpty() && !i.isRange()) {
            return AccessPath.filteredIndexScan(i.table(), i.index(), combined);
        }
        return new PlanNode.Filter(scan, combined);
    }

    private static boolean isWhole(PlanNode.TableScan s) {
        return s.keyPrefix().isEmpty() && !s.isRange();
    }

    /** The conjuncts whose substitution stays {@link #local}, each reading the expressions instead of its slots. */
    private static List<BoundExpr> substituted(List<BoundExpr> conjuncts, List<BoundExpr> expressions) {
        List<BoundExpr> out = new ArrayList<>();
        for (BoundExpr c : conjuncts) {
            BitSet read = Slots.read(c);
            if (read.stream().allMatch(i -> local(expressions.get(i)))) {
                out.add(substitute(c, expressions));
            }
        }
        return out;
    }

    private static BoundExpr substitute(BoundExpr e, List<BoundExpr> expressions) {
        if (e instanceof BoundExpr.ColumnSlot s) {
            return expressions.get(s.index());
        }
        if (e instanceof BoundExpr.Call c) {
            List<BoundExpr> args = new ArrayList<>();
            for (BoundExpr a : c.arguments()) {
                args.add(substitute(a, expressions));
            }
            return new BoundExpr.Call(c.operator(), c.function(), args, c.type(), c.collation(), c.deterministic());
        }
        return e;
    }

    private static List<Collation> collations(List<OutputColumn> columns) {
        return columns.stream().map(OutputColumn::collation).toList();
    }

    /** The conjuncts true for all or none of any rows equal column by column under {@code identity}. */
    private static List<BoundExpr> indistinguishing(List<BoundExpr> conjuncts, List<Collation> identity) {
        return conjuncts.stream().filter(c -> indistinguishing(c, identity)).toList();
    }

    private static boolean indistinguishing(BoundExpr e, List<Collation> identity) {
        if (!(e instanceof BoundExpr.Call c)) {
            return false;
        }
        List<BoundExpr> args = c.arguments();
        return switch (c.operator()) {
            case "and", "or", "not" -> args.stream().allMatch(a -> indistinguishing(a, identity));
            case "isnull", "notnull" -> args.get(0) instanceof BoundExpr.ColumnSlot;
            case "between", "in" -> comparesColumn(c, args.get(0), args.subList(1, args.size()), identity);
            default -> ExpressionBinder.COMPARISONS.contains(c.operator())
                    && (comparesColumn(c, args.get(0), args.subList(1, 2), identity)
                    || comparesColumn(c, args.get(1), args.subList(0, 1), identity));
        };
    }

    /** Whether {@code call} compares the column with values free of the row, under the collation rows are merged by. */
    private static boolean comparesColumn(BoundExpr.Call call, BoundExpr column, List<BoundExpr> values,
                                          List<Collation> identity) {
        return column instanceof BoundExpr.ColumnSlot s && call.collation() == identity.get(s.index())
                && values.stream().allMatch(v -> Slots.read(v).isEmpty());
    }
}
