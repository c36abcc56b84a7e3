package io.derive.engine.plan;

import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.List;

/**
 * A column of a plan node's output: name, type, collation, whether it can be NULL, whether it is
 * hidden (a table's implicit {@code rowid}: selectable by name, not part of {@code *}), and the
 * stored column its name comes from ({@link ColumnOrigin}; null when it has none).
 */
public record OutputColumn(String name, SqlType type, Collation collation, boolean notNull, boolean hidden,
                           ColumnOrigin origin) {

    public OutputColumn(String name, SqlType type, Collation collation, boolean notNull) {
        this(name, type, collation, notNull, false, null);
    }

    public OutputColumn(String name, SqlType type, Collation collation, boolean notNull, boolean hidden) {
        this(name, type, collation, notNull, hidden, null);
    }

    static List<OutputColumn> of(TableSchema table) {
        List<OutputColumn> columns = new java.util.ArrayList<>(table.columns().size());
        // once per table: a key is built by concatenating and lower-casing, and every write binds a scan
        String key = table.key();
        for (int i = 0; i < table.columns().size(); i++) {
            ColumnSchema c = table.columns().get(i);
            columns.add(new OutputColumn(c.name(), c.type(), c.collation(), c.notNull(), c.hidden(),
                    new ColumnOrigin(key, i)));
        }
        return columns;
    }

    /** The same column, now nullable (the inner side of an outer join). */
    OutputColumn nullable() {
        return new OutputColumn(name, type, collation, false, hidden, origin);
    }
}
