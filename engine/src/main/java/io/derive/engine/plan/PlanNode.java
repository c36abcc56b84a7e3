package io.derive.engine.plan;

import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.SourceSpan;

import java.util.List;

/** A node of a logical query plan. Rows flow from the leaves (scans) to the root. */
public sealed interface PlanNode {

    /** The columns of the rows this node produces. */
    List<OutputColumn> columns();

    /**
     * Rows of a table in key order. When {@code keyPrefix} is not empty, only rows whose key
     * starts with those values (a prefix seek on the physical key). {@code notIndexed} (SQLite's
     * {@code not indexed}) keeps the planner from reaching these rows through a secondary index.
     */
    record TableScan(TableSchema table, List<BoundExpr> keyPrefix, Bound lower, Bound upper, boolean notIndexed)
            implements PlanNode {
        public TableScan {
            keyPrefix = List.copyOf(keyPrefix);
        }

        /** A scan of the key prefix without range bounds. */
        public TableScan(TableSchema table, List<BoundExpr> keyPrefix) {
            this(table, keyPrefix, null, null, false);
        }

        /** Whether the scan is narrowed to a range of the key column after the prefix. */
        public boolean isRange() {
            return lower != null || upper != null;
        }

        @Override
        public List<OutputColumn> columns() {
            return OutputColumn.of(table);
        }
    }

    /**
     * Rows of a table found through its secondary index {@code index}: those whose index key
     * begins with {@code prefix} (all rows for an empty prefix, as the index orders them).
     */
    record IndexScan(TableSchema table, String index, List<BoundExpr> prefix, Bound lower, Bound upper)
            implements PlanNode {
        public IndexScan {
            prefix = List.copyOf(prefix);
        }

        /** A seek on an index-key prefix without range bounds. */
        public IndexScan(TableSchema table, String index, List<BoundExpr> prefix) {
            this(table, index, prefix, null, null);
        }

        /** Whether the seek is narrowed to a range of the index column after the prefix. */
        public boolean isRange() {
            return lower != null || upper != null;
        }

        @Override
        public List<OutputColumn> columns() {
            return OutputColumn.of(table);
        }
    }

    /** One side of a key range: the bound's value and whether it is included. */
    record Bound(BoundExpr value, boolean inclusive) {
    }

    /** Rows of a system table-valued function. */
    record FunctionScan(SystemTableFunction function, List<BoundExpr> arguments) implements PlanNode {
        @Override
        public List<OutputColumn> columns() {
            return function.columns();
        }
    }

    /** One row without columns: the source of a select without {@code from}. */
    record SingleRow() implements PlanNode {
        @Override
        public List<OutputColumn> columns() {
            return List.of();
        }
    }

    record Filter(PlanNode input, BoundExpr predicate) implements PlanNode {
        @Override
        public List<OutputColumn> columns() {
            return input.columns();
        }
    }

    record Project(PlanNode input, List<BoundExpr> expressions, List<OutputColumn> columns) implements PlanNode {
        public Project {
            expressions = List.copyOf(expressions);
            columns = List.copyOf(columns);
        }
    }

    record Distinct(PlanNode input) implements PlanNode {
        @Override
        public List<OutputColumn> columns() {
            return input.columns();
        }
    }

    /** {@code nullsFirst} is already resolved (SQLite: first ascending, last descending). */
    record SortKey(int column, boolean descending, boolean nullsFirst) {
    }

    record Sort(PlanNode input, List<SortKey> keys) implements PlanNode {
        public Sort {
            keys = List.copyOf(keys);
        }

        @Override
        public List<OutputColumn> columns() {
            return input.columns();
        }
    }

    /**
     * Rows of {@code left} combined with rows of {@code right} (left columns first).
     * {@code leftKeys}/{@code rightKeys} are equality keys (evaluated on the left and the right row;
     * compared under {@code keyCollations}), {@code condition} the rest of the join condition over
     * the combined row (null when none). With {@code lookup}, {@code right} is a table scan whose
     * physical key starts with the right keys, so each left row seeks the right table.
     */
    record Join(PlanNode left, PlanNode right, JoinType type, List<BoundExpr> leftKeys, List<BoundExpr> rightKeys,
                List<io.derive.engine.types.Collation> keyCollations, BoundExpr condition, boolean lookup)
            implements PlanNode {
        public Join {
            leftKeys = List.copyOf(leftKeys);
            rightKeys = List.copyOf(rightKeys);
            keyCollations = List.copyOf(keyCollations);
        }

        @Override
        public List<OutputColumn> columns() {
            List<OutputColumn> all = new java.util.ArrayList<>();
            for (OutputColumn c : left.columns()) {
                all.add(type == JoinType.FULL ? c.nullable() : c);
            }
            for (OutputColumn c : right.columns()) {
                all.add(type == JoinType.INNER ? c : c.nullable());
            }
            return all;
        }
    }

    /** Join semantics after planning: a right join is planned as a left join with swapped inputs. */
    enum JoinType { INNER, LEFT, FULL }

    /**
     * For each left row, the rows of {@code right} evaluated with the left row as the enclosing row
     * (a lateral join: {@code right} reads it through {@link BoundExpr.OuterRef} depth 0).
     * {@code outer} keeps a left row without right rows, padded with NULLs.
     */
    record Apply(PlanNode left, PlanNode right, boolean outer) implements PlanNode {
        @Override
        public List<OutputColumn> columns() {
            List<OutputColumn> all = new java.util.ArrayList<>(left.columns());
            for (OutputColumn c : right.columns()) {
                all.add(outer ? c.nullable() : c);
            }
            return all;
        }
    }

    /** One row per group of {@code groupKeys} (one row in all when there are none): the keys, then the aggregates. */
    record Aggregate(PlanNode input, List<BoundExpr> groupKeys, List<AggregateCall> aggregates,
                     List<OutputColumn> columns) implements PlanNode {
        public Aggregate {
            groupKeys = List.copyOf(groupKeys);
            aggregates = List.copyOf(aggregates);
            columns = List.copyOf(columns);
        }
    }

    enum SetOperator { UNION, UNION_ALL, INTERSECT, EXCEPT }

    /** A set operation; the output has the left input's column names. */
    record SetOperation(SetOperator operator, PlanNode left, PlanNode right) implements PlanNode {
        @Override
        public List<OutputColumn> columns() {
            return left.columns();
        }
    }

    /**
     * A recursive common table: the rows of {@code anchor}, then repeatedly the rows {@code step}
     * produces from the rows of the previous round (read by {@link WorkingTable} {@code id}),
     * until a round adds none. Without {@code all}, rows already produced are not produced again.
     */
    record RecursiveUnion(int id, PlanNode anchor, PlanNode step, boolean all, List<OutputColumn> columns)
            implements PlanNode {
        public RecursiveUnion {
            columns = List.copyOf(columns);
        }
    }

    /** The rows of the previous round of the {@link RecursiveUnion} with this {@code id}. */
    record WorkingTable(int id, List<OutputColumn> columns) implements PlanNode {
        public WorkingTable {
            columns = List.copyOf(columns);
        }
    }

    /**
     * {@code limit} and {@code offset} may be null; {@code limitAt} and {@code offsetAt} are where
     * they stand in the SQL text, for the error a value that is no integer fails with when run.
     */
    record Limit(PlanNode input, BoundExpr limit, BoundExpr offset, SourceSpan limitAt, SourceSpan offsetAt)
            implements PlanNode {
        @Override
        public List<OutputColumn> columns() {
            return input.columns();
        }
    }
}
