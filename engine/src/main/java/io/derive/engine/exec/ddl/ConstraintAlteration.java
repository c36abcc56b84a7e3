package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.write.CheckConditions;
import io.derive.engine.exec.write.ConstraintChecker;
import io.derive.engine.exec.write.ForeignKeyEnforcer;
import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.exec.write.RowWriter;
import io.derive.engine.plan.ExpressionBinder;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.ForeignKey;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableConstraints;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.sql.ast.Statement;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code alter table t add constraint …} and {@code drop constraint n}. An added constraint must
 * hold for the rows already stored (a UNIQUE one gets its index built first, a FOREIGN KEY is
 * checked only while {@code pragma foreign_keys} is on, as writes are); the catalog change and
 * the host's index change are undone together by rollback, like all DDL.
 */
final class ConstraintAlteration {
    private static final Object[] WHOLE_TABLE = new Object[0];

    private final ExecutionContext context;

    ConstraintAlteration(ExecutionContext context) {
        this.context = context;
    }

    Result add(TableSchema table, Statement.AddConstraint add) {
        Statement.TableConstraint clause = add.constraint();
        if (clause.name() != null && constraintNamed(table, clause.name())) {
            throw add.span().error(DeriveException.DUPLICATE_OBJECT, "there is already a constraint named "
                    + clause.name() + " on table " + table.name());
        }
        TableConstraints c = table.constraints();
        TableSchema after;
        try {
            if (clause instanceof Statement.CheckDef check) {
                after = table.withConstraints(c.with(plus(c.checks(), addCheck(table, check)),
                        c.foreignKeys(), c.indexes()));
            } else if (clause instanceof Statement.UniqueDef unique) {
                IndexSchema index = addUnique(table, unique);
                after = table.withConstraints(c.withIndexes(plus(c.indexes(), index)));
            } else {
                ForeignKey fk = addForeignKey(table, (Statement.ForeignKeyDef) clause);
                after = table.withConstraints(c.with(c.checks(), plus(c.foreignKeys(), fk), c.indexes()));
            }
        } catch (DeriveException e) {
            throw e.at(add.span().line(), add.span().column());
        }
        Transaction txn = context.transaction();
        txn.changeCatalog(txn.catalog().with(after));
        return Result.empty(StatementKind.DDL);
    }

    Result drop(TableSchema table, Statement.DropConstraint drop) {
        TableConstraints c = table.constraints();
        String name = drop.name();
        List<CheckConstraint> checks = new ArrayList<>(c.checks());
        List<ForeignKey> keys = new ArrayList<>(c.foreignKeys());
        List<IndexSchema> indexes = new ArrayList<>(c.indexes());
        boolean found = checks.removeIf(k -> name.equalsIgnoreCase(k.name()))
                | keys.removeIf(k -> name.equalsIgnoreCase(k.name()));
        for (IndexSchema index : c.indexes()) {
            if (index.name().equalsIgnoreCase(name)) {
                if (!index.constraint()) {
                    throw drop.span().error(DeriveException.UNDEFINED_OBJECT, "no such constraint: " + name
                            + " (on table " + table.name() + ", " + name + " is an index: use DROP INDEX)");
                }
                refuseReferencedKey(table, index, drop);
                dropIndex(table, index);
                indexes.remove(index);
                found = true;
            }
        }
        if (!found) {
            throw drop.span().error(DeriveException.UNDEFINED_OBJECT, "no such constraint: " + name
                    + " on table " + table.name());
        }
        Transaction txn = context.transaction();
        txn.changeCatalog(txn.catalog().with(table.withConstraints(c.with(checks, keys, indexes))));
        return Result.empty(StatementKind.DDL);
    }

    /**
     * Binds the condition and, unless it is a check on delete alone, requires it of every stored
     * row as an insert would write it (OLD all NULL): {@code CHECK constraint failed: name}. A
     * condition reading tables is evaluated now too, against the transaction's state.
     */
    private CheckConstraint addCheck(TableSchema table, Statement.CheckDef def) {
        CheckConstraint check = new CheckConstraint(def.name(), def.operations(), def.condition(), def.sql());
        RowImageReferences.refuseAtCommit(table.name(), def);
        CheckConditions.Compiled condition;
        if (check.readsTables()) {
            // a missing table or column is named at its place in this statement
            new QueryBinder(context.transaction().catalog(), context.sql()).bindExpression(def.condition(),
                    IndexShapes.scopeOf(table));
            condition = CheckConditions.reading(table, check, context.transaction().catalog()).compile();
        } else {
            // a missing column is named first
            ExpressionBinder.bind(def.condition(), CheckConditions.scope(table.name(), IndexShapes.scopeOf(table), check));
            condition = CheckConditions.rowLocal(table, check).compile();
        }
        if (!check.appliesToDerivedRows()) {
            return check; // a check on delete alone holds for the rows stored: none of them is being deleted
        }
        // the stored rows must pass it as the rows an insert writes would (OLD all NULL)
        try (RowCursor rows = context.transaction().connection(table).scan(WHOLE_TABLE, false)) {
            while (rows.hasNext()) {
                if (condition.rejects(rows.next(), context.parameters())) {
                    throw ConstraintChecker.violation("CHECK constraint failed: " + check.label());
                }
            }
        }
        return check;
    }

    /** Builds the constraint's unique index on the host, then requires the stored rows to be distinct under it. */
    private IndexSchema addUnique(TableSchema table, Statement.UniqueDef def) {
        Transaction txn = context.transaction();
        IndexSchema index = ConstraintDefinitions.unique(table.name(), table.columns(), def,
                n -> IndexDdl.exists(txn.catalog(), table.schema(), n), context.sql());
        HostedTable storage = table.storage();
        TableSchema after = table.withConstraints(table.constraints().withIndexes(plus(table.constraints().indexes(), index)));
        storage.createIndex(IndexShapes.of(after, index));
        txn.onRollback(() -> storage.dropIndex(index.name()));
        new IndexDdl(context).requireUnique(after, index);
        return index;
    }

    /** Resolves the columns and, while foreign keys are enforced, requires every stored row to reference a parent. */
    private ForeignKey addForeignKey(TableSchema table, Statement.ForeignKeyDef def) {
        ForeignKey fk = ConstraintDefinitions.foreignKey(table.name(), table.columns(), def);
        if (context.pragmas().foreignKeys()) {
            TableSchema probe = table.withConstraints(new TableConstraints(List.of(), List.of(fk), List.of()));
            ForeignKeyEnforcer enforcer = new ForeignKeyEnforcer(context, new RowWriter(context));
            try (RowCursor rows = context.transaction().connection(table).scan(WHOLE_TABLE, false)) {
                while (rows.hasNext()) {
                    enforcer.childWritten(probe, null, rows.next());
                }
            }
            enforcer.verify();
        }
        return fk;
    }

    /**
     * A UNIQUE constraint whose columns a foreign key references is the parent key that foreign
     * key finds its parent rows by; dropping it would leave the reference without one.
     */
    private void refuseReferencedKey(TableSchema table, IndexSchema index, Statement.DropConstraint drop) {
        List<String> columns = index.columns().stream().map(c -> table.columns().get(c.column()).name()).toList();
        for (TableSchema child : context.transaction().catalog().tables()) {
            for (ForeignKey fk : child.constraints().foreignKeys()) {
                boolean parent = fk.parentTable().equalsIgnoreCase(table.name())
                        && (fk.parentSchema() == null || fk.parentSchema().equalsIgnoreCase(table.schema()));
                if (parent && fk.parentColumns().size() == columns.size()
                        && fk.parentColumns().stream().allMatch(p -> columns.stream().anyMatch(p::equalsIgnoreCase))) {
                    throw drop.span().error(DeriveException.INVALID_DEFINITION, "cannot drop constraint " + index.name()
                            + ": a FOREIGN KEY of table '" + child.name() + "' references its columns");
                }
            }
        }
    }

    /** Removes a UNIQUE constraint's index from the host; a rollback rebuilds it. */
    private void dropIndex(TableSchema table, IndexSchema index) {
        HostedTable storage = table.storage();
        IndexShape shape = IndexShapes.of(table, index);
        storage.dropIndex(index.name());
        context.transaction().onRollback(() -> storage.createIndex(shape));
    }

    private static boolean constraintNamed(TableSchema table, String name) {
        TableConstraints c = table.constraints();
        return c.checks().stream().anyMatch(k -> name.equalsIgnoreCase(k.name()))
                || c.foreignKeys().stream().anyMatch(k -> name.equalsIgnoreCase(k.name()))
                || c.indexes().stream().anyMatch(i -> i.constraint() && name.equalsIgnoreCase(i.name()));
    }

    private static <T> List<T> plus(List<T> list, T element) {
        List<T> next = new ArrayList<>(list);
        next.add(element);
        return next;
    }
}
