package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.write.IndexShapes;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.sql.Parser;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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

    /**
     * For a source that materialized views read: {@code referenced by CHECK constraint 'ck' on
     * table 'r', which reaches it through materialized view 'bm'} for the first check of another
     * table that reads one of those views (directly or further down a chain of views over views,
     * all named in order); empty when no check does.
     */
    static Optional<String> readerThrough(Catalog catalog, TableSchema source) {
        record Path(TableSchema view, List<String> chain) {
        }
        Deque<Path> pending = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        for (TableSchema d : catalog.dependentsOf(source)) {
            pending.add(new Path(d, List.of(d.name())));
        }
        while (!pending.isEmpty()) {
            Path next = pending.removeFirst();
            if (!seen.add(next.view().key())) {
                continue;
            }
            Optional<String> reader = readerOf(catalog, next.view().key());
            if (reader.isPresent()) {
                String views = next.chain().size() == 1 ? "materialized view '" + next.chain().get(0) + "'"
                        : "materialized views '" + String.join("' → '", next.chain()) + "'";
                return Optional.of(reader.get() + ", which reaches it through " + views);
            }
            for (TableSchema d : catalog.dependentsOf(next.view())) {
                List<String> chain = new ArrayList<>(next.chain());
                chain.add(d.name());
                pending.add(new Path(d, chain));
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
