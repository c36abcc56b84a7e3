package io.derive.derby;

import io.derive.engine.api.BranchId;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.transaction.xa.Xid;

/**
 * Which Derby tables each XA branch wrote, recorded in {@code "DERIVE"."IN_DOUBT"} (one row per
 * branch and table: its xid as {@link BranchId#toString()} prints it, the qualified Derby name)
 * on the store's own connection, committed before Derby prepares the branch: so that after a
 * crash the tables a branch left in doubt are known, and every other table can open. Derby itself
 * keeps no such list in a form it documents: its diagnostic tables ({@code SYSCS_DIAG.LOCK_TABLE},
 * {@code TRANSACTION_TABLE}) show the locks of a transaction, named in Derby's own formats, and
 * say nothing of which of them a transaction took by writing rather than reading.
 *
 * <p>A branch's rows become stale when Derby commits or rolls it back: they are deleted with the
 * next record this process writes, or at close, and those a crash left behind at the next open —
 * a row whose xid Derby does not hold prepared then is ignored. A prepared branch with no row
 * (prepared by a Derive that kept no record) counts as having written every table.
 *
 * <p>The branches Derby holds prepared when the record is opened are those a process that ended
 * left in doubt ({@link #writers}); those prepared later are this process's own, whose sessions
 * hold what they wrote.
 */
final class InDoubtManifest {
    private static final System.Logger LOG = System.getLogger(InDoubtManifest.class.getName());
    private static final String TABLE = "IN_DOUBT";
    private static final String XID = "xid";
    private static final String WROTE = "wrote";

    private final DerbyTableModule module;
    /** The Derby schema of the record; null for {@link #none}. */
    private final String schema;
    /** The Derby table of the record, created at the first record; null until then. */
    private String qualified;
    /** By branch an ended process left in doubt, the Derby tables it wrote; null for a branch with no record. */
    private final Map<BranchId, Set<String>> leftInDoubt = new HashMap<>();
    /** The branches whose rows the table holds. */
    private final Set<BranchId> recorded = new HashSet<>();
    /** Branches Derby has completed whose rows are still to be deleted. */
    private final Set<BranchId> finished = new LinkedHashSet<>();

    private InDoubtManifest(DerbyTableModule module, String schema, String qualified) {
        this.module = module;
        this.schema = schema;
        this.qualified = qualified;
    }

    /** A record that keeps nothing, for tables that do not outlive their module. */
    static InDoubtManifest none(DerbyTableModule module) {
        return new InDoubtManifest(module, null, null);
    }

    /**
     * The record of the database of {@code store} (its table in {@code schema} is created at the
     * first record): what the branches Derby holds prepared now wrote; the rows of every other
     * branch are deleted.
     */
    static InDoubtManifest open(DerbyTableModule module, DerbyStore store, String schema) {
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put(XID, "VARCHAR");
        columns.put(WROTE, "VARCHAR");
        boolean exists = store.reopen(schema, TABLE, columns);
        InDoubtManifest manifest = new InDoubtManifest(module, schema, exists ? DerbySql.qualified(schema, TABLE) : null);
        Set<BranchId> prepared = new HashSet<>();
        store.inDoubt().forEach(x -> prepared.add(BranchId.of(x)));
        prepared.forEach(x -> manifest.leftInDoubt.put(x, null));
        if (exists) {
            manifest.read(store, prepared);
            manifest.deleteFinished();
        }
        return manifest;
    }

    private void read(DerbyStore store, Set<BranchId> prepared) {
        store.onOwnConnection(c -> {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select " + DerbySql.identifier(XID) + ", " + DerbySql.identifier(WROTE)
                         + " from " + qualified)) {
                module.executed(1);
                while (rs.next()) {
                    BranchId xid = BranchId.parse(rs.getString(1));
                    recorded.add(xid);
                    if (prepared.contains(xid)) {
                        leftInDoubt.computeIfAbsent(xid, x -> new HashSet<>()).add(rs.getString(2));
                    } else {
                        finished.add(xid);
                    }
                }
            }
            return null;
        });
    }

    /**
     * Records, committed when this returns, that branch {@code xid} wrote {@code derbyTables}
     * (qualified Derby names); the rows of completed branches go in the same transaction.
     */
    synchronized void record(Xid xid, Collection<String> derbyTables) {
        if (schema == null) {
            return;
        }
        if (qualified == null) {
            qualified = DerbySql.qualified(schema, module.store().createTable(schema, TABLE, DerbySql.identifier(XID)
                    + " varchar(400) not null, " + DerbySql.identifier(WROTE) + " varchar(1000) not null, primary key ("
                    + DerbySql.identifier(XID) + ", " + DerbySql.identifier(WROTE) + ")"));
        }
        BranchId id = BranchId.of(xid);
        Set<BranchId> stale = Set.copyOf(finished);
        module.store().onOwnConnection(c -> {
            delete(c, stale);
            try (PreparedStatement p = c.prepareStatement("insert into " + qualified + " values (?, ?)")) {
                for (String table : new LinkedHashSet<>(derbyTables)) {
                    p.setString(1, id.toString());
                    p.setString(2, table);
                    p.addBatch();
                }
                module.executed(1);
                p.executeBatch();
            }
            return null;
        });
        forget(stale);
        recorded.add(id);
    }

    /** Derby has committed or rolled back branch {@code xid}: its rows are stale. */
    synchronized void completed(Xid xid) {
        BranchId id = BranchId.of(xid);
        leftInDoubt.remove(id);
        if (recorded.contains(id)) {
            finished.add(id);
        }
    }

    /**
     * The branches an ended process left in doubt that wrote any of {@code derbyTables}, or of
     * which the record knows nothing.
     */
    synchronized List<BranchId> writers(Collection<String> derbyTables) {
        List<BranchId> writers = new ArrayList<>();
        leftInDoubt.forEach((xid, tables) -> {
            if (tables == null || !Collections.disjoint(tables, derbyTables)) {
                writers.add(xid);
            }
        });
        return writers;
    }

    /** Deletes the rows of completed branches; the database is closing. A failure leaves them for the next open. */
    synchronized void close() {
        try {
            deleteFinished();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the stale rows of " + qualified + " are left for the next open to delete", e);
        }
    }

    private void deleteFinished() {
        if (qualified == null || finished.isEmpty()) {
            return;
        }
        Set<BranchId> stale = Set.copyOf(finished);
        module.store().onOwnConnection(c -> {
            delete(c, stale);
            return null;
        });
        forget(stale);
    }

    private void delete(Connection c, Set<BranchId> stale) throws SQLException {
        if (stale.isEmpty()) {
            return;
        }
        try (PreparedStatement p = c.prepareStatement("delete from " + qualified + " where " + DerbySql.identifier(XID) + " = ?")) {
            for (BranchId xid : stale) {
                p.setString(1, xid.toString());
                p.addBatch();
            }
            module.executed(1);
            p.executeBatch();
        }
    }

    private void forget(Set<BranchId> stale) {
        finished.removeAll(stale);
        recorded.removeAll(stale);
    }
}
