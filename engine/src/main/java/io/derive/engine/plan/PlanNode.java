package io.derive.engine.plan;

import io.derive.engine.schema.TableSchema;

import java.util.List;

/** A node of a logical query plan. Rows flow from the leaves (scans) to the root. */
public sealed interface PlanNode {

    /** The columns of the rows this node produces. */
    List<OutputColumn> columns();

    /**
     * Rows of a table in key order. When {@code keyPrefix} is not empty, only rows whose key
     * starts with those values (a prefix seek on the physical key).
     */
    record TableScan(TableSchema table, List<BoundExpr> keyPrefix) implements PlanNode {
        public TableScan {
            keyPrefix = List.copyOf(keyPrefix);
        }

        @Override
        public List<OutputColumn> columns() {
            return OutputColumn.of(table);
        }
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

    /** {@code limit} and {@code offset} may be null. */
    record Limit(PlanNode input, BoundExpr limit, BoundExpr offset) implements PlanNode {
        @Override
        public List<OutputColumn> columns() {
            return input.columns();
        }
    }
}
