package io.derive.engine.exec.context;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.StatementKind;
import io.derive.engine.sql.ast.Statement;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The pragma values of one session. Each known pragma is one entry of {@link #KNOWN}: its default
 * and how a written value is read; adding a pragma is adding one entry. Values are not
 * transactional (as in SQLite): {@code pragma x = v} holds from then on, whatever the
 * transaction does.
 */
public final class Pragmas {

    /** A known pragma: the value it starts with and how {@code pragma name = text} is read. */
    private record Definition(Object initial, Function<String, Object> reader) {
    }

    private static final Map<String, Definition> KNOWN = Map.of(
            "foreign_keys", new Definition(true, Pragmas::bool),
            "default_column_nullability", new Definition("nullable", Pragmas::nullability),
            "materialized_view_rebuild_row_threshold", new Definition(10_000L, Pragmas::rowThreshold),
            "nondeterministic_schema", new Definition(false, Pragmas::bool),
            "ddl_transaction_policy", new Definition("permissive", Pragmas::ddlTransactionPolicy));

    private final Map<String, Object> values = new HashMap<>();

    /** Whether foreign keys are enforced ({@code pragma foreign_keys}, default on). */
    public boolean foreignKeys() {
        return (Boolean) known("foreign_keys");
    }

    /**
     * Whether a column that declares neither {@code null} nor {@code not null} is NOT NULL
     * ({@code pragma default_column_nullability = 'not_null'}; the default, 'nullable', is standard SQL).
     */
    public boolean columnsDefaultToNotNull() {
        return "not_null".equals(known("default_column_nullability"));
    }

    /**
     * The largest source (in rows) a full-rebuild-only materialized-view body may read
     * ({@code pragma materialized_view_rebuild_row_threshold}, default 10000); 0 disables the gate.
     */
    public long rebuildRowThreshold() {
        return (Long) known("materialized_view_rebuild_row_threshold");
    }

    /** Whether a full-rebuild body may publish non-deterministic columns ({@code pragma nondeterministic_schema}, default off). */
    public boolean nondeterministicSchema() {
        return (Boolean) known("nondeterministic_schema");
    }

    /**
     * Whether materialized-view DDL and refresh are refused inside an explicit transaction
     * ({@code pragma ddl_transaction_policy = 'strict'}; the default, 'permissive', allows them).
     */
    public boolean strictDdlTransactions() {
        return "strict".equals(known("ddl_transaction_policy"));
    }

    /** The current value of a known pragma. */
    public Object value(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        if (!KNOWN.containsKey(key)) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such pragma: " + name);
        }
        return known(key);
    }

    /** The current value of the known pragma {@code key}, already lower-cased: the accessors ask at every write. */
    private Object known(String key) {
        Object value = values.get(key);
        return value != null ? value : KNOWN.get(key).initial();
    }

    /** Runs {@code pragma name} (one row with the value) or {@code pragma name = value} (no rows). */
    public Result run(Statement.Pragma pragma) {
        Definition d = KNOWN.get(pragma.name());
        if (d == null) {
            throw pragma.span().error(DeriveException.UNDEFINED_OBJECT, "no such pragma: " + pragma.name());
        }
        if (pragma.value() == null) {
            Object v = value(pragma.name());
            Object shown = v instanceof Boolean b ? (Long) (b ? 1L : 0L) : v;
            List<String> columns = List.of(pragma.name());
            return new Result(StatementKind.PRAGMA, columns, List.of(new Row(columns, new Object[] {shown})), 0);
        }
        Object v;
        try {
            v = d.reader().apply(pragma.value());
        } catch (DeriveException e) {
            throw e.at(pragma.span().line(), pragma.span().column());
        }
        values.put(pragma.name(), v);
        return Result.empty(StatementKind.PRAGMA);
    }

    private static Object nullability(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        if (t.equals("not_null") || t.equals("nullable")) {
            return t;
        }
        throw new DeriveException(DeriveException.DATA,
                "default_column_nullability must be 'not_null' or 'nullable' but found '" + text + "'");
    }

    private static Object rowThreshold(String text) {
        try {
            long n = Long.parseLong(text);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below with the rule
        }
        throw new DeriveException(DeriveException.DATA,
                "materialized_view_rebuild_row_threshold must be an integer >= 0 but found '" + text + "'");
    }

    private static Object ddlTransactionPolicy(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        if (t.equals("permissive") || t.equals("strict")) {
            return t;
        }
        throw new DeriveException(DeriveException.DATA,
                "ddl_transaction_policy must be 'permissive' or 'strict' but found '" + text + "'");
    }

    private static Object bool(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        if (t.equals("on") || t.equals("true") || t.equals("yes") || t.equals("1")) {
            return true;
        }
        if (t.equals("off") || t.equals("false") || t.equals("no") || t.equals("0")) {
            return false;
        }
        throw new DeriveException(DeriveException.DATA, "expected on, off, true, false, 1 or 0 but found '" + text + "'");
    }
}
