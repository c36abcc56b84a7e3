package io.derive.engine.plan;

import io.derive.engine.schema.Collation;
import io.derive.engine.schema.SqlType;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The table-valued functions the engine itself provides in {@code from} (introspection). The
 * planner knows their columns; {@link io.derive.engine.exec.SystemTables} produces their rows.
 */
public enum SystemTableFunction {
    /**
     * One row per materialized view: {@code schema, name, host, arm, stale, row_count,
     * body_evaluations} (the number of full evaluations of its body since it was created).
     */
    MATERIALIZED_VIEWS(List.of(
            text("schema"), text("name"), text("host"), text("arm"),
            new OutputColumn("stale", SqlType.BOOLEAN, Collation.BINARY, true),
            integer("row_count"), integer("body_evaluations")));

    private final List<OutputColumn> columns;

    SystemTableFunction(List<OutputColumn> columns) {
        this.columns = columns;
    }

    public List<OutputColumn> columns() {
        return columns;
    }

    public String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<SystemTableFunction> named(String name) {
        for (SystemTableFunction f : values()) {
            if (f.sqlName().equalsIgnoreCase(name)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    private static OutputColumn text(String name) {
        return new OutputColumn(name, SqlType.TEXT, Collation.BINARY, true);
    }

    private static OutputColumn integer(String name) {
        return new OutputColumn(name, SqlType.INTEGER, Collation.BINARY, true);
    }
}
