package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.TableShape;
import io.derive.engine.sql.ast.SourceSpan;

import java.util.ArrayList;
import java.util.List;

/**
 * The checks of attaching a derivation to a declared table (semantics §2, the table form and
 * {@code alter table … set maintained}): no derivation cycle, and the declared shape against the
 * body's — column count, names, types, nullability both ways, collation, primary key — first
 * mismatch reported.
 */
final class Attachment {
    private Attachment() {
    }

    /** Refuses a body that reads the table, directly or through the materialized views it reads. */
    static void refuseCycle(TableSchema table, BodyAnalysis body, Catalog catalog, SourceSpan at) {
        for (TableSchema source : body.sources().values()) {
            List<String> path = new ArrayList<>(List.of(table.name()));
            if (reaches(source, table, catalog, path)) {
                throw new DeriveException(DeriveException.INVALID_DEFINITION, "cannot maintain '" + table.qualifiedName()
                        + "': derivation cycle (" + String.join(" → ", path) + ")", at.line(), at.column());
            }
        }
    }

    private static boolean reaches(TableSchema from, TableSchema target, Catalog catalog, List<String> path) {
        path.add(from.name());
        if (from.key().equals(target.key())) {
            return true;
        }
        if (from.isMaintained()) {
            for (String source : from.derivation().sources()) {
                var t = catalog.tableByKey(source);
                if (t.isPresent() && reaches(t.get(), target, catalog, path)) {
                    return true;
                }
            }
        }
        path.remove(path.size() - 1);
        return false;
    }

    /**
     * A column list names every output of the body, neither more nor fewer; checked before any
     * reshape, which maps the names to outputs by position.
     *
     * @throws DeriveException {@code N column names given but the body produces M}, sited at {@code at}
     */
    static void checkNameCount(TableSchema table, BodyAnalysis body, List<String> names, SourceSpan at) {
        if (!names.isEmpty() && names.size() != body.columns().size()) {
            throw refuse("'" + table.qualifiedName() + "': " + names.size() + " column names given but the body produces "
                    + body.columns().size(), at);
        }
    }

    /** A table keyed by its hidden rowid has no key a body could derive. */
    static void checkDeclaredKey(TableSchema table, SourceSpan at) {
        if (table.columns().stream().anyMatch(ColumnSchema::hidden)) {
            throw refuse("'" + table.qualifiedName() + "' has no declared primary key; a maintained table needs one", at);
        }
    }

    /**
     * Checks the table's declared columns and key against the body; {@code names} renames the
     * body's outputs by position (empty: the body's own names).
     */
    static void checkShape(TableSchema table, BodyAnalysis body, List<String> names, SourceSpan at) {
        List<ColumnSchema> declared = table.columns();
        List<OutputColumn> derived = body.columns();
        String name = "'" + table.qualifiedName() + "'";
        checkDeclaredKey(table, at);
        checkNameCount(table, body, names, at);
        if (derived.size() != declared.size()) {
            throw refuse(name + ": body produces " + derived.size() + " columns but the table declares " + declared.size(), at);
        }
        for (int i = 0; i < derived.size(); i++) {
            OutputColumn d = derived.get(i);
            ColumnSchema c = declared.get(i);
            String output = names.isEmpty() ? d.name() : names.get(i);
            if (!output.equalsIgnoreCase(c.name())) {
                throw refuse(name + ": output " + (i + 1) + " is named '" + output + "' but the table declares '"
                        + c.name() + "' (alias the body output)", at);
            }
            checkColumn(table, i, d, at);
        }
        List<TableShape.KeyPart> key = body.key();
        List<TableShape.KeyPart> declaredKey = table.primaryKey();
        if (key.size() != declaredKey.size()) {
            throw refuse(name + ": the body's key " + columns(table, key) + " is not the declared primary key "
                    + columns(table, declaredKey), at);
        }
        for (int i = 0; i < key.size(); i++) {
            if (key.get(i).column() != declaredKey.get(i).column()) {
                throw refuse(name + ": the body's key " + columns(table, key) + " is not the declared primary key "
                        + columns(table, declaredKey), at);
            }
            if (key.get(i).descending() != declaredKey.get(i).descending()) {
                throw refuse(name + ": primary key column '" + table.columns().get(key.get(i).column()).name()
                        + "': direction differs from the body's order", at);
            }
        }
    }

    /** Checks the declared column at {@code i} against the body's output {@code d}: type, nullability both ways, collation. */
    static void checkColumn(TableSchema table, int i, OutputColumn d, SourceSpan at) {
        ColumnSchema c = table.columns().get(i);
        String name = "'" + table.qualifiedName() + "'";
        if (d.type() != c.type() && d.type() != io.derive.engine.types.SqlType.ANY) {
            throw refuse(name + ": column '" + c.name() + "': body derives type " + d.type().sqlName()
                    + " but the table declares " + c.type().sqlName(), at);
        }
        if (d.notNull() && !c.notNull()) {
            throw refuse(name + ": column '" + c.name() + "': body derives not null but the table declares nullable", at);
        }
        if (!d.notNull() && c.notNull() && !isKeyColumn(table, i)) {
            throw refuse(name + ": column '" + c.name() + "': body derives nullable but the table declares not null", at);
        }
        if (d.collation() != c.collation()) {
            throw refuse(name + ": column '" + c.name() + "': body derives collation " + d.collation().sqlName()
                    + " but the table declares " + c.collation().sqlName(), at);
        }
    }

    /** Whether {@code column} is one of {@code table}'s primary-key columns. */
    static boolean isKeyColumn(TableSchema table, int column) {
        return table.primaryKey().stream().anyMatch(k -> k.column() == column);
    }

    private static String columns(TableSchema table, List<TableShape.KeyPart> key) {
        List<String> names = new ArrayList<>();
        key.forEach(k -> names.add(table.columns().get(k.column()).name()));
        return "(" + String.join(", ", names) + ")";
    }

    private static DeriveException refuse(String message, SourceSpan at) {
        return at.error(DeriveException.INVALID_DEFINITION, message);
    }
}
