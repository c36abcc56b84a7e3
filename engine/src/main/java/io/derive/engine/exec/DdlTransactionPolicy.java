package io.derive.engine.exec;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.Pragmas;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Statement;

import java.util.Optional;

/**
 * {@code pragma ddl_transaction_policy = 'strict'}: materialized-view DDL and refresh may then run
 * only on their own (autocommit), never inside {@code begin … commit}, for deployments that want
 * such changes committed apart from the data changes around them (semantics §1, §2).
 */
final class DdlTransactionPolicy {
    private DdlTransactionPolicy() {
    }

    /**
     * Refuses {@code statement}, about to run inside an explicit transaction, when the policy is
     * strict and it is materialized-view DDL or a refresh.
     */
    static void check(Statement statement, Catalog catalog, Pragmas pragmas) {
        if (!pragmas.strictDdlTransactions()) {
            return;
        }
        describe(statement, catalog).ifPresent(what -> {
            throw new DeriveException(DeriveException.TRANSACTION_STATE, "ddl_transaction_policy is 'strict': "
                    + what + " is not allowed inside a transaction (run it outside begin … commit)",
                    statement.span().line(), statement.span().column());
        });
    }

    /** The statement's name when it is materialized-view DDL or a refresh. */
    private static Optional<String> describe(Statement statement, Catalog catalog) {
        if (statement instanceof Statement.CreateMaterializedView || statement instanceof Statement.CreateMaintainedTable) {
            return Optional.of("create materialized view");
        }
        if (statement instanceof Statement.RefreshMaterializedView) {
            return Optional.of("refresh materialized view");
        }
        if (statement instanceof Statement.AlterMaterializedView) {
            return Optional.of("alter materialized view");
        }
        if (statement instanceof Statement.Drop d && (d.kind() == Statement.ObjectKind.MATERIALIZED_VIEW
                || d.kind() == Statement.ObjectKind.TABLE && maintained(catalog, d.name()))) {
            return Optional.of("drop materialized view");
        }
        if (statement instanceof Statement.AlterTable a && a.action() instanceof Statement.AttachStep) {
            return Optional.of("alter table … attach");
        }
        if (statement instanceof Statement.AlterTable a && (a.action() instanceof Statement.SetMaintained
                || a.action() instanceof Statement.DropMaintained || maintained(catalog, a.table()))) {
            return Optional.of("alter table of a maintained table");
        }
        return Optional.empty();
    }

    private static boolean maintained(Catalog catalog, QualifiedName name) {
        return catalog.table(name.schema(), name.name()).map(TableSchema::isMaintained).orElse(false);
    }
}
