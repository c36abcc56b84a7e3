package io.derive.engine.plan;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.IndexHint;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** How rows of one table are reached for a predicate: key-prefix and key-range seeks, index seeks, scans. */
public final class AccessPath {
    private AccessPath() {
    }

    /**
     * The rows of a table a predicate over its columns selects: a seek on a prefix (and range)
     * of the physical key where the predicate fixes it, else a seek on the secondary index whose
     * leading columns it fixes most, else a scan; the predicate is applied to the rows found.
     */
    public static PlanNode filteredScan(TableSchema table, BoundExpr predicate) {
        return filteredScan(table, predicate, false);
    }

    /**
     * As {@link #filteredScan(TableSchema, BoundExpr)}; with {@code notIndexed} no secondary index
     * is used (key seeks still are).
     */
    public static PlanNode filteredScan(TableSchema table, BoundExpr predicate, boolean notIndexed) {
        List<BoundExpr> conjuncts = BoundExpr.conjuncts(predicate);
        List<BoundExpr> prefix = new ArrayList<>();
        for (TableShape.KeyPart part : table.primaryKey()) {
            Optional<BoundExpr> value = equalityValue(conjuncts, part.column(),
                    table.columns().get(part.column()).collation());
            if (value.isEmpty()) {
                break;
            }
            prefix.add(value.get());
        }
        PlanNode.Bound lower = null;
        PlanNode.Bound upper = null;
        if (prefix.size() < table.primaryKey().size()) {
            int column = table.primaryKey().get(prefix.size()).column();
            PlanNode.Bound[] bounds = rangeBounds(conjuncts, column, table.columns().get(column).collation());
            lower = bounds[0];
            upper = bounds[1];
        }
        if (prefix.isEmpty() && lower == null && upper == null && !notIndexed) {
            Optional<PlanNode.IndexScan> index = indexSeek(table, conjuncts);
            if (index.isPresent()) {
                return new PlanNode.Filter(index.get(), predicate);
            }
        }
        return new PlanNode.Filter(new PlanNode.TableScan(table, prefix, lower, upper, notIndexed), predicate);
    }

    /**
     * The rows of a table a predicate selects, reached through {@code index} (SQLite's
     * {@code indexed by}): a seek where the predicate fixes the index's leading columns, else a
     * scan of the whole index; the predicate is applied to the rows found.
     */
    public static PlanNode filteredIndexScan(TableSchema table, String index, BoundExpr predicate) {
        IndexSchema schema = table.constraints().indexes().stream().filter(i -> i.name().equals(index)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no index " + index + " on " + table.qualifiedName()));
        PlanNode.IndexScan seek = seek(table, schema, BoundExpr.conjuncts(predicate));
        return predicate == null ? seek : new PlanNode.Filter(seek, predicate);
    }

    /**
     * The index an {@code indexed by} clause names, which must be a full index of {@code table}.
     *
     * @throws DeriveException {@code UNDEFINED_OBJECT} ({@code no such index: …}) when the table has
     *                         no index of that name; {@code INVALID_DEFINITION} ({@code no query
     *                         solution}, as SQLite says) for a partial index, which the planner never
     *                         uses
     */
    public static IndexSchema hintedIndex(TableSchema table, IndexHint.IndexedBy hint) {
        for (IndexSchema index : table.constraints().indexes()) {
            if (index.name().equalsIgnoreCase(hint.index())) {
                if (index.where() != null) {
                    throw hint.span().error(DeriveException.INVALID_DEFINITION, "no query solution: index '" + index.name()
                            + "' of table '" + table.qualifiedName() + "' is partial and cannot serve 'indexed by'");
                }
                return index;
            }
        }
        throw hint.span().error(DeriveException.UNDEFINED_OBJECT, "no such index: " + hint.index()
                + " (for table '" + table.qualifiedName() + "' in 'indexed by')");
    }

    /** The full (not partial) secondary index whose leading columns the conjuncts fix most. */
    private static Optional<PlanNode.IndexScan> indexSeek(TableSchema table, List<BoundExpr> conjuncts) {
        PlanNode.IndexScan best = null;
        for (IndexSchema index : table.constraints().indexes()) {
            if (index.where() != null) {
                continue;
            }
            PlanNode.IndexScan candidate = seek(table, index, conjuncts);
            int strength = candidate.prefix().size() * 2 + (candidate.isRange() ? 1 : 0);
            int bestStrength = best == null ? 0 : best.prefix().size() * 2 + (best.isRange() ? 1 : 0);
            if (strength > bestStrength) {
                best = candidate;
            }
        }
        return Optional.ofNullable(best);
    }

    /** The seek on {@code index} the conjuncts allow: fixed leading columns, then a range; a whole-index scan when none. */
    private static PlanNode.IndexScan seek(TableSchema table, IndexSchema index, List<BoundExpr> conjuncts) {
        List<BoundExpr> values = new ArrayList<>();
        for (IndexSchema.IndexColumn column : index.columns()) {
            Optional<BoundExpr> value = equalityValue(conjuncts, column.column(), column.collation());
            if (value.isEmpty()) {
                break;
            }
            values.add(value.get());
        }
        PlanNode.Bound[] bounds = new PlanNode.Bound[2];
        if (values.size() < index.columns().size()) {
            IndexSchema.IndexColumn next = index.columns().get(values.size());
            bounds = rangeBounds(conjuncts, next.column(), next.collation());
        }
        return new PlanNode.IndexScan(table, index.name(), values, bounds[0], bounds[1]);
    }

    /**
     * The index lookup a join can make into {@code table} when its right keys include the leading
     * columns of a full secondary index: the index, and for each index column the position in
     * {@code rightKeys} of the key that fixes it.
     */
    static Optional<IndexLookup> indexLookup(TableSchema table, List<BoundExpr> rightKeys,
                                             List<io.derive.engine.types.Collation> collations) {
        IndexLookup best = null;
        for (IndexSchema index : table.constraints().indexes()) {
            if (index.where() != null) {
                continue;
            }
            List<Integer> positions = new ArrayList<>();
            for (IndexSchema.IndexColumn column : index.columns()) {
                int found = -1;
                for (int i = 0; i < rightKeys.size(); i++) {
                    if (rightKeys.get(i) instanceof BoundExpr.ColumnSlot slot && slot.index() == column.column()
                            && collations.get(i) == column.collation()) {
                        found = i;
                    }
                }
                if (found < 0) {
                    break;
                }
                positions.add(found);
            }
            if (!positions.isEmpty() && (best == null || positions.size() > best.keyPositions().size())) {
                best = new IndexLookup(index.name(), positions);
            }
        }
        return Optional.ofNullable(best);
    }

    /** An index a join looks rows up through, and which join keys fix its leading columns. */
    record IndexLookup(String index, List<Integer> keyPositions) {
    }

    /**
     * The bounds a conjunct puts on a key column: {@code col > v}, {@code >=}, {@code <},
     * {@code <=} (either side) and {@code col between a and b}, under the column's collation.
     * Returns {lower, upper}, each null when the conjunct gives none.
     */
    private static PlanNode.Bound[] rangeBounds(List<BoundExpr> conjuncts, int column,
                                                io.derive.engine.types.Collation collation) {
        PlanNode.Bound[] bounds = new PlanNode.Bound[2];
        for (BoundExpr e : conjuncts) {
            PlanNode.Bound[] b = rangeBounds(e, column, collation);
            bounds[0] = bounds[0] == null ? b[0] : bounds[0];
            bounds[1] = bounds[1] == null ? b[1] : bounds[1];
        }
        return bounds;
    }

    private static PlanNode.Bound[] rangeBounds(BoundExpr e, int column, io.derive.engine.types.Collation collation) {
        PlanNode.Bound[] none = new PlanNode.Bound[2];
        if (!(e instanceof BoundExpr.Call c) || c.collation() != collation) {
            return none;
        }
        List<BoundExpr> args = c.arguments();
        if (c.operator().equals("between") && isSlot(args.get(0), column) && isFree(args.get(1)) && isFree(args.get(2))) {
            return new PlanNode.Bound[] {new PlanNode.Bound(args.get(1), true), new PlanNode.Bound(args.get(2), true)};
        }
        if (args.size() != 2) {
            return none;
        }
        String op = c.operator();
        BoundExpr value;
        if (isSlot(args.get(0), column) && isFree(args.get(1))) {
            value = args.get(1);
        } else if (isSlot(args.get(1), column) && isFree(args.get(0))) {
            value = args.get(0);
            op = switch (op) {
                case "<" -> ">";
                case "<=" -> ">=";
                case ">" -> "<";
                case ">=" -> "<=";
                default -> op;
            };
        } else {
            return none;
        }
        return switch (op) {
            case ">" -> new PlanNode.Bound[] {new PlanNode.Bound(value, false), null};
            case ">=" -> new PlanNode.Bound[] {new PlanNode.Bound(value, true), null};
            case "<" -> new PlanNode.Bound[] {null, new PlanNode.Bound(value, false)};
            case "<=" -> new PlanNode.Bound[] {null, new PlanNode.Bound(value, true)};
            default -> none;
        };
    }

    /** A value free of the row that the conjuncts equate the column with, under the given collation. */
    private static Optional<BoundExpr> equalityValue(List<BoundExpr> conjuncts, int column,
                                                     io.derive.engine.types.Collation collation) {
        for (BoundExpr e : conjuncts) {
            // "is" seeks like "=": a NULL value then seeks NULL keys, which is what "is" selects.
            boolean equality = e instanceof BoundExpr.Call c0 && (c0.operator().equals("=") || c0.operator().equals("is"));
            if (!equality || !(e instanceof BoundExpr.Call c) || c.collation() != collation) {
                continue;
            }
            BoundExpr left = c.arguments().get(0);
            BoundExpr right = c.arguments().get(1);
            if (isSlot(left, column) && isFree(right)) {
                return Optional.of(right);
            }
            if (isSlot(right, column) && isFree(left)) {
                return Optional.of(left);
            }
        }
        return Optional.empty();
    }

    private static boolean isSlot(BoundExpr e, int column) {
        return e instanceof BoundExpr.ColumnSlot s && s.index() == column;
    }

    /** An expression that reads no column of the row: constants, parameters, enclosing rows, and calls of them. */
    private static boolean isFree(BoundExpr e) {
        if (e instanceof BoundExpr.Call c) {
            return c.deterministic() && c.arguments().stream().allMatch(AccessPath::isFree);
        }
        return e instanceof BoundExpr.Constant || e instanceof BoundExpr.ParameterRef || e instanceof BoundExpr.OuterRef;
    }
}
