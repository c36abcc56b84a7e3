package io.derive.engine.schema;

import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import io.derive.engine.types.TextValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The canonical DDL text of schema objects, as {@code schema()} shows it and a durable catalog
 * can store it: one spelling per definition, generated from the catalog objects (never the text
 * as typed), so two equal definitions read the same. A maintained table reads in its table form,
 * {@code create table … maintained as <body>}.
 */
public final class CanonicalDdl {
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private CanonicalDdl() {
    }

    public static String table(TableSchema table) {
        List<String> parts = new ArrayList<>();
        for (ColumnSchema c : table.columns()) {
            if (!c.hidden()) {
                parts.add(column(c));
            }
        }
        if (!table.isBag()) {
            List<String> key = new ArrayList<>();
            for (TableShape.KeyPart part : table.primaryKey()) {
                key.add(identifier(table.columns().get(part.column()).name()) + (part.descending() ? " desc" : ""));
            }
            parts.add("primary key (" + String.join(", ", key) + ")" + onConflict(table.constraints().primaryKeyConflict()));
        }
        for (IndexSchema index : table.constraints().indexes()) {
            if (index.constraint()) {
                parts.add(constraintName(index) + "unique (" + String.join(", ", columnNames(table, index)) + ")"
                        + onConflict(index.conflict()));
            }
        }
        for (CheckConstraint check : table.constraints().checks()) {
            parts.add((check.name() == null ? "" : "constraint " + identifier(check.name()) + " ")
                    + "check " + operations(check) + "(" + check.sql() + ")");
        }
        for (ForeignKey fk : table.constraints().foreignKeys()) {
            parts.add(foreignKey(table, fk));
        }
        StringBuilder sql = new StringBuilder("create table ").append(name(table.schema(), table.name()))
                .append(" (").append(String.join(", ", parts)).append(") using ").append(table.module());
        if (table.isMaintained()) {
            sql.append(" maintained as ").append(table.derivation().bodySql());
        }
        return sql.append(table.tags().clause()).toString();
    }

    public static String view(ViewSchema view) {
        StringBuilder sql = new StringBuilder("create view ").append(name(view.schema(), view.name()));
        if (!view.columnNames().isEmpty()) {
            sql.append(" (").append(String.join(", ", view.columnNames().stream().map(CanonicalDdl::identifier).toList()))
                    .append(")");
        }
        return sql.append(" as ").append(view.bodySql()).append(view.tags().clause()).toString();
    }

    /**
     * {@code create [unique] index name on schema.table (c [collate x] [desc], …) [where …]} for a
     * secondary index that is not a constraint's, naming the table and columns as they are now
     * (the index's own text keeps the names it was created with).
     */
    public static String index(TableSchema table, IndexSchema index) {
        List<String> columns = new ArrayList<>();
        for (IndexSchema.IndexColumn c : index.columns()) {
            ColumnSchema column = table.columns().get(c.column());
            columns.add(identifier(column.name()) + (c.collation() != column.collation() ? " collate " + c.collation().sqlName() : "")
                    + (c.descending() ? " desc" : ""));
        }
        StringBuilder sql = new StringBuilder("create ").append(index.unique() ? "unique " : "").append("index ")
                .append(identifier(index.name())).append(" on ").append(name(table.schema(), table.name()))
                .append(" (").append(String.join(", ", columns)).append(')');
        if (index.where() != null) {
            Statement.CreateIndex created = (Statement.CreateIndex) Parser.parseStatement(index.sql());
            sql.append(" where ").append(created.where().span().text(index.sql()));
        }
        return sql.toString();
    }

    /** A constant as an SQL literal: {@code 'it''s'}, {@code x'00ff'}, {@code 1.5}, {@code null}. */
    public static String literal(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Long || value instanceof Double || value instanceof BigDecimal) {
            return TextValue.of(value);
        }
        if (value instanceof Boolean b) {
            return b ? "true" : "false";
        }
        if (value instanceof byte[] bytes) {
            return "x'" + HexFormat.of().formatHex(bytes) + "'";
        }
        return "'" + TextValue.of(value).replace("'", "''") + "'";
    }

    /**
     * A name as SQL text: bare when it is a plain identifier that does not read as a keyword,
     * else double-quoted, so the text reads back as this name wherever a name may stand.
     */
    public static String identifier(String name) {
        boolean bare = PLAIN_IDENTIFIER.matcher(name).matches() && !Parser.readsAsKeyword(name);
        return bare ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static String column(ColumnSchema c) {
        StringBuilder sql = new StringBuilder(identifier(c.name()));
        if (c.type() != SqlType.ANY) {
            sql.append(' ').append(c.type().sqlName());
        }
        if (c.notNull()) {
            sql.append(" not null").append(onConflict(c.notNullConflict()));
        }
        if (c.collation() != Collation.BINARY) {
            sql.append(" collate ").append(c.collation().sqlName());
        }
        if (c.dynamicDefault() != null) {
            sql.append(" default (").append(c.dynamicDefault().sql()).append(')');
        } else if (c.defaultValue() != null) {
            sql.append(" default ").append(literal(c.defaultValue()));
        }
        return sql.toString();
    }

    /**
     * {@code  on conflict x} for a constraint that resolves otherwise than by abort. (A
     * table-level CHECK's conflict clause is not kept: SQLite accepts it and ignores it.)
     */
    private static String onConflict(Statement.ConflictAction conflict) {
        return conflict == null ? "" : " on conflict " + conflict.name().toLowerCase(Locale.ROOT);
    }

    /** {@code on insert, delete } for a check that is not on insert and update, in a fixed order. */
    private static String operations(CheckConstraint check) {
        if (check.operations().equals(CheckConstraint.INSERT_AND_UPDATE)) {
            return "";
        }
        List<String> names = new ArrayList<>();
        for (Statement.RowOperation operation : Statement.RowOperation.values()) {
            if (check.appliesTo(operation)) {
                names.add(operation.name().toLowerCase(Locale.ROOT));
            }
        }
        return "on " + String.join(", ", names) + " ";
    }

    private static String foreignKey(TableSchema table, ForeignKey fk) {
        List<String> columns = new ArrayList<>();
        for (int position : fk.columns()) {
            columns.add(identifier(table.columns().get(position).name()));
        }
        StringBuilder sql = new StringBuilder();
        if (fk.name() != null) {
            sql.append("constraint ").append(identifier(fk.name())).append(' ');
        }
        sql.append("foreign key (").append(String.join(", ", columns)).append(") references ")
                .append(fk.parentSchema() == null ? identifier(fk.parentTable()) : name(fk.parentSchema(), fk.parentTable()));
        if (!fk.parentColumns().isEmpty()) {
            sql.append(" (").append(String.join(", ", fk.parentColumns().stream().map(CanonicalDdl::identifier).toList()))
                    .append(")");
        }
        if (fk.onDelete() != null && fk.onDelete() != ForeignKey.Action.NO_ACTION) {
            sql.append(" on delete ").append(fk.onDelete().sql());
        }
        if (fk.onUpdate() != null && fk.onUpdate() != ForeignKey.Action.NO_ACTION) {
            sql.append(" on update ").append(fk.onUpdate().sql());
        }
        return sql.toString();
    }

    /**
     * {@code constraint name } for a UNIQUE constraint the user named, so that re-reading the DDL
     * (rehydrate) gives it back its name; nothing for an {@code autoindex_…} name, which re-reading
     * mints again.
     */
    private static String constraintName(IndexSchema index) {
        return index.name().toLowerCase(Locale.ROOT).startsWith("autoindex_")
                ? "" : "constraint " + identifier(index.name()) + " ";
    }

    private static List<String> columnNames(TableSchema table, IndexSchema index) {
        List<String> names = new ArrayList<>();
        for (IndexSchema.IndexColumn c : index.columns()) {
            names.add(identifier(table.columns().get(c.column()).name()) + (c.descending() ? " desc" : ""));
        }
        return names;
    }

    private static String name(String schema, String name) {
        return schema.toLowerCase(Locale.ROOT) + "." + identifier(name);
    }
}
