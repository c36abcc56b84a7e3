package io.derive.engine.plan;

import io.derive.engine.schema.Collation;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.SqlType;
import io.derive.engine.schema.TableSchema;

import java.util.List;

/** A column of a plan node's output: name, type, collation and whether it can be NULL. */
public record OutputColumn(String name, SqlType type, Collation collation, boolean notNull) {

    static List<OutputColumn> of(TableSchema table) {
        return table.columns().stream().map(OutputColumn::of).toList();
    }

    static OutputColumn of(ColumnSchema c) {
        return new OutputColumn(c.name(), c.type(), c.collation(), c.notNull());
    }
}
