package io.derive.engine.schema;

import io.derive.engine.sql.ast.Select;

import java.util.List;
import java.util.Locale;

/**
 * A view in the catalog: a named query expanded where it is read. Views share one namespace
 * with tables in their schema. Immutable.
 *
 * @param columnNames the declared column names ({@code create view v (a, b)}), empty when the
 *                    view publishes its body's own output names
 * @param bodySql     the select as written; {@link #body} was parsed from exactly this text, so
 *                    its spans point into it
 * @param body        the parsed select
 * @param tags        the view's tags (metadata; reading the view never sees them)
 */
public record ViewSchema(String schema, String name, List<String> columnNames, String bodySql, Select body,
                         Tags tags) {

    public ViewSchema {
        columnNames = List.copyOf(columnNames);
        tags = tags == null ? Tags.NONE : tags;
    }

    /** The same view with other tags. */
    public ViewSchema withTags(Tags next) {
        return new ViewSchema(schema, name, columnNames, bodySql, body, next);
    }

    public String qualifiedName() {
        return schema + "." + name;
    }

    /** The catalog key of this view: lower-cased qualified name. */
    public String key() {
        return Catalog.key(schema, name);
    }

    @Override
    public String toString() {
        return qualifiedName().toLowerCase(Locale.ROOT);
    }
}
