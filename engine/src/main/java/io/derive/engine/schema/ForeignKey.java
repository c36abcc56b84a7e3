package io.derive.engine.schema;

import java.util.List;

/**
 * A {@code FOREIGN KEY} of a child table: its columns reference a parent table's primary key or
 * unique columns. Matching is MATCH SIMPLE: a child key with a NULL component references nothing.
 *
 * @param name          the declared constraint name, or null
 * @param columns       positions of the child columns, in order
 * @param parentSchema  the parent's schema, or null for the usual search ({@code temp}, then {@code main})
 * @param parentTable   the parent table's name as written (it need not exist when the child is created)
 * @param parentColumns the referenced columns by name; empty means the parent's primary key
 * @param onDelete      what a delete of a referenced parent row does
 * @param onUpdate      what a change of a referenced parent key does
 */
public record ForeignKey(String name, List<Integer> columns, String parentSchema, String parentTable,
                         List<String> parentColumns, Action onDelete, Action onUpdate) {

    /** The referential actions, with SQLite's meanings. */
    public enum Action {
        /** Fails at the end of the statement if a child row still references a missing parent. */
        NO_ACTION("no action"),
        /** Fails at once when a referenced parent row is deleted or re-keyed. */
        RESTRICT("restrict"),
        CASCADE("cascade"),
        SET_NULL("set null"),
        SET_DEFAULT("set default");

        private final String sql;

        Action(String sql) {
            this.sql = sql;
        }

        public String sql() {
            return sql;
        }
    }

    public ForeignKey {
        columns = List.copyOf(columns);
        parentColumns = List.copyOf(parentColumns);
    }
}
