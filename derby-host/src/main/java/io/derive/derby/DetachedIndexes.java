package io.derive.derby;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;

/**
 * The index tables of a database directory's Derby database that their table stopped
 * maintaining ({@link DerbyTable#dropIndex}) and that may still exist: their physical drop waits
 * for the locks of the dropping transaction, and a crash forgets the queue of drops. The durable
 * catalog can still name such a table — when the dropping transaction rolled back, the engine
 * built the index anew in another table and rewrites the catalog only at its next change — so a
 * reopen must not take its entries as current. Every other index table is: its entries are written
 * in the same Derby transaction as its table's rows, which Derby commits or undoes as one, at a
 * crash too.
 *
 * <p>A name is recorded, in a transaction of its own, as soon as its table is detached, and
 * forgotten when a new index table takes the name, or once the open that follows has rewritten the
 * catalog ({@link #forgetAll}), which then names only the index tables that open reattached or
 * built.
 *
 * <p>The record's Derby table exists only while it holds a name: it is created with the first and
 * dropped with the last. An open learns from the listing of Derby's catalog it reads anyway that
 * there is none, nearly always, and then reads nothing more.
 */
final class DetachedIndexes {
    private static final String TABLE = "DETACHED_INDEXES";
    private static final String NAME = "name";

    private final DerbyTableModule module;
    /** The Derby table of the record; null for {@link #none}. */
    private final String qualified;
    private final Set<String> names = new HashSet<>();
    private boolean exists;

    private DetachedIndexes(DerbyTableModule module, String qualified) {
        this.module = module;
        this.qualified = qualified;
    }

    /** A record that keeps nothing, for tables that do not outlive their module. */
    static DetachedIndexes none(DerbyTableModule module) {
        return new DetachedIndexes(module, null);
    }

    /** The record of the database of {@code store}, with the names it holds. */
    static DetachedIndexes open(DerbyTableModule module, DerbyStore store, String schema) {
        DetachedIndexes detached = new DetachedIndexes(module, DerbySql.qualified(schema, TABLE));
        detached.exists = store.reopen(schema, TABLE, java.util.Map.of(NAME, "VARCHAR"));
        if (detached.exists) {
            store.reading(c -> {
                try (Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("select " + DerbySql.identifier(NAME) + " from " + detached.qualified)) {
                    module.executed(1);
                    while (rs.next()) {
                        detached.names.add(rs.getString(1));
                    }
                }
                return null;
            });
        }
        return detached;
    }

    synchronized boolean contains(String indexTable) {
        return names.contains(indexTable);
    }

    /** Records that {@code indexTable} (a qualified Derby name) is no longer maintained. */
    synchronized void add(String indexTable) {
        if (qualified == null || !names.add(indexTable)) {
            return;
        }
        if (!exists) {
            // A crash before the insert leaves the record empty, which an open reads as such.
            run("create table " + qualified + " (" + DerbySql.identifier(NAME) + " varchar(32672) not null primary key)", null);
            exists = true;
        }
        run("insert into " + qualified + " values (?)", indexTable);
    }

    /** Forgets {@code indexTable}: a new index table of that name has just been created. */
    synchronized void remove(String indexTable) {
        if (qualified == null || !names.remove(indexTable)) {
            return;
        }
        if (names.isEmpty()) {
            dropRecord();
        } else {
            run("delete from " + qualified + " where " + DerbySql.identifier(NAME) + " = ?", indexTable);
        }
    }

    /** Forgets every name: the catalog just written names none of these tables. */
    synchronized void forgetAll() {
        names.clear();
        if (exists) {
            dropRecord();
        }
    }

    private void dropRecord() {
        run("drop table " + qualified, null);
        exists = false;
    }

    private void run(String sql, String indexTable) {
        module.store().onOwnConnection(c -> {
            try (PreparedStatement p = c.prepareStatement(sql)) {
                if (indexTable != null) {
                    p.setString(1, indexTable);
                }
                module.executed(1);
                p.execute();
            }
            return null;
        });
    }
}
