package io.derive.engine.plan;

import io.derive.engine.schema.Collation;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.SqlType;
import io.derive.engine.schema.TableSchema;

import java.util.List;

/**
 * A column of a plan node's output: name, type, collation, whether it can be NULL, and whether
 * it is hidden (a table's implicit {@code rowid}: selectable by name, not part of {@code *}).
 */
public record OutputColumn(String name, SqlType type, Collation collation, boolean notNull, boolean hidden) {

    public OutputColumn(String name, SqlType type, Collation collation, boolean notNull) {
        this(name, type, collation, notNull, false);
    }

    static List<OutputColumn> of(TableSchema table) {
        return table.columns().stream().map(OutputColumn::of).toList();
    }

    static OutputColumn of(ColumnSchema c) {
        return new OutputColumn(c.name(), c.type(), c.collation(), c.notNull(), c.hidden());
    }

    /** The same column, now nullable (the inner side of an outer join). */
    OutputColumn nullable() {
        return new OutputColumn(name, type, collation, false, hidden);
    }
}
