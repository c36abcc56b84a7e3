package io.derive.engine.exec;

import io.derive.engine.api.DeriveException;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.Parser;

import java.util.Optional;

/**
 * Which CHECK constraint of another table reads a materialized view through its subquery: the
 * view may not be dropped while the check stands (semantics §2: {@code referenced by CHECK
 * constraint 'ck' on table 'r'}). A check of the dropped table itself goes with it. Defaults
 * cannot read tables (the grammar has no subquery there), so no default can depend on one.
 */
final class CheckReaders {
    private CheckReaders() {
    }

    /**
     * {@code referenced by CHECK constraint 'ck' on table 'r'} for the first check of another
     * table that names the object with catalog key {@code key}; empty when none does.
     */
    static Optional<String> readerOf(Catalog catalog, String key) {
        for (TableSchema table : catalog.tables()) {
            if (table.key().equals(key)) {
                continue;
            }
            for (CheckConstraint check : table.constraints().checks()) {
                if (check.readsTables() && names(catalog, table, check, key)) {
                    return Optional.of("referenced by CHECK constraint '" + check.label() + "' on table '"
                            + table.name() + "'");
                }
            }
        }
        return Optional.empty();
    }

    private static boolean names(Catalog catalog, TableSchema table, CheckConstraint check, String key) {
        RenamedReferences names = RenamedReferences.reading();
        try {
            // parsed from its own text, so that its spans point into the text the binder is given
            new QueryBinder(catalog, check.sql(), names).bindExpression(Parser.parseExpression(check.sql()),
                    IndexShapes.scopeOf(table));
        } catch (DeriveException alreadyBroken) {
            // A check that no longer binds (an object it read went under a rename) holds nothing back.
            return false;
        }
        return names.named().contains(key);
    }
}
