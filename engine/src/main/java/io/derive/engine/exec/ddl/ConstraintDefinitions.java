package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.EngineServices;
import io.derive.engine.exec.write.CheckConditions;
import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.ForeignKey;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableConstraints;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.SourceSpan;
import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The UNIQUE, CHECK and FOREIGN KEY clauses of a {@code create table}, column and table level,
 * turned into catalog {@link TableConstraints}; every name they use is checked here, before any
 * storage exists. A UNIQUE constraint becomes a unique index the host keeps.
 */
final class ConstraintDefinitions {
    private ConstraintDefinitions() {
    }

    /**
     * @param indexNameTaken whether an index name is already used in the table's schema: a
     *                       constraint name that is fails, an engine-made name skips it
     */
    static TableConstraints of(Statement.CreateTable create, List<ColumnSchema> columns, String sql,
                               Predicate<String> indexNameTaken) {
        String table = create.name().name();
        List<Statement.TableConstraint> clauses = new ArrayList<>();
        for (Statement.ColumnDef def : create.columns()) {
            clauses.addAll(def.constraints());
        }
        clauses.addAll(create.constraints());
        List<CheckConstraint> checks = new ArrayList<>();
        List<ForeignKey> foreignKeys = new ArrayList<>();
        List<IndexSchema> indexes = new ArrayList<>();
        Scope scope = scope(table, columns);
        for (Statement.TableConstraint clause : clauses) {
            if (clause instanceof Statement.UniqueDef u) {
                indexes.add(unique(table, columns, u, indexNameTaken.or(n -> named(indexes, n)), sql));
            } else if (clause instanceof Statement.CheckDef c) {
                CheckConstraint check = new CheckConstraint(c.name(), c.operations(), c.condition(), c.sql());
                RowImageReferences.refuseAtCommit(table, c);
                if (!check.readsTables()) {
                    // names a missing column now rather than at the first write; one reading
                    // tables is bound once the table exists ({@link #bindReadingChecks})
                    ExpressionBinder.bind(c.condition(), CheckConditions.scope(table, scope, check));
                }
                checks.add(check);
            } else {
                foreignKeys.add(foreignKey(table, columns, (Statement.ForeignKeyDef) clause));
            }
        }
        return new TableConstraints(checks, foreignKeys, indexes, primaryKeyConflict(create));
    }

    /** The {@code on conflict …} of the primary key, written on its column or on the table's clause. */
    private static Statement.ConflictAction primaryKeyConflict(Statement.CreateTable create) {
        for (Statement.ColumnDef def : create.columns()) {
            if (def.primaryKey()) {
                return def.primaryKeyConflict();
            }
        }
        return create.primaryKeyConflict();
    }

    /**
     * Binds the CHECKs of a new table that read tables against the catalog holding it (a check
     * may read its own table), so that a missing table or column is named at create rather than
     * at the first commit.
     */
    static void bindReadingChecks(TableSchema table, Catalog catalog, String sql) {
        for (CheckConstraint check : table.constraints().checks()) {
            if (check.readsTables()) {
                new QueryBinder(catalog, sql).bindExpression(check.condition(), IndexShapes.scopeOf(table));
            }
        }
    }

    /** Has the host build (or, while a durable catalog replays, reattach) the indexes of a new table's constraints. */
    static void createIndexes(EngineServices services, TableSchema table) {
        for (IndexSchema index : table.constraints().indexes()) {
            services.buildIndex(table, IndexShapes.of(table, index));
        }
    }

    private static boolean named(List<IndexSchema> indexes, String name) {
        return indexes.stream().anyMatch(i -> i.name().equalsIgnoreCase(name));
    }

    /** The unique index that carries a UNIQUE constraint; an unnamed one gets the first free {@code autoindex_t_N}. */
    static IndexSchema unique(String table, List<ColumnSchema> columns, Statement.UniqueDef u,
                                      Predicate<String> taken, String sql) {
        List<IndexSchema.IndexColumn> indexed = new ArrayList<>();
        for (Statement.KeyColumn k : u.columns()) {
            int column = position(table, columns, k.name(), k.span());
            indexed.add(new IndexSchema.IndexColumn(column, columns.get(column).collation(), k.descending()));
        }
        String name = u.name();
        if (name == null) {
            int ordinal = 1;
            while (taken.test(name = "autoindex_" + table.toLowerCase(Locale.ROOT) + "_" + ordinal)) {
                ordinal++;
            }
        } else if (taken.test(name)) {
            throw u.span().error(DeriveException.DUPLICATE_OBJECT, "index " + name + " already exists");
        }
        return new IndexSchema(name, indexed, true, null, true, u.span().text(sql), u.conflict());
    }

    static ForeignKey foreignKey(String table, List<ColumnSchema> columns, Statement.ForeignKeyDef fk) {
        List<Integer> positions = new ArrayList<>();
        for (String c : fk.columns()) {
            positions.add(position(table, columns, c, fk.span()));
        }
        if (!fk.parentColumns().isEmpty() && fk.parentColumns().size() != positions.size()) {
            throw fk.span().error(DeriveException.INVALID_DEFINITION, "foreign key on table " + table + " has "
                    + positions.size() + " columns but references " + fk.parentColumns().size());
        }
        return new ForeignKey(fk.name(), positions, fk.parent().schema(), fk.parent().name(), fk.parentColumns(),
                action(fk.onDelete()), action(fk.onUpdate()));
    }

    private static ForeignKey.Action action(Statement.ReferentialAction a) {
        return ForeignKey.Action.valueOf(a.name());
    }

    private static int position(String table, List<ColumnSchema> columns, String name, SourceSpan at) {
        for (int i = 0; i < columns.size(); i++) {
            if (!columns.get(i).hidden() && columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        throw at.error(DeriveException.UNDEFINED_OBJECT, "no such column: " + name + " in table " + table);
    }

    private static Scope scope(String table, List<ColumnSchema> columns) {
        List<OutputColumn> outputs = new ArrayList<>();
        for (ColumnSchema c : columns) {
            outputs.add(new OutputColumn(c.name(), c.type(), c.collation(), c.notNull()));
        }
        return Scope.of(table, outputs);
    }
}
