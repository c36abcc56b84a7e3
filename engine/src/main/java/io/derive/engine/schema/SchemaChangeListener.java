package io.derive.engine.schema;

/**
 * Told of every change to a database's tables (the materialized-view manager subscribes, to
 * recompile or mark stale the views that read a changed source).
 *
 * <p>Events fire once per successful statement that changed the catalog, inside that statement,
 * after its DDL ran and before its statement savepoint is released: a listener that throws fails
 * the statement, which then leaves no trace. A statement that fails fires nothing. A transaction
 * that later rolls back fires no compensating events: whatever a listener records in response
 * must live in the catalog (or be registered with the transaction) so that it rolls back too.
 * Listeners are called on the thread of the session that ran the statement.
 *
 * <p>A rename or an alter is {@link #tableModified} with the same table before and after (matched
 * by name, or by storage for a rename); create and drop are {@link #tableAdded} and
 * {@link #tableRemoved}.
 */
public interface SchemaChangeListener {

    default void tableAdded(TableSchema table) {
    }

    default void tableModified(TableSchema before, TableSchema after) {
    }

    default void tableRemoved(TableSchema table) {
    }
}
