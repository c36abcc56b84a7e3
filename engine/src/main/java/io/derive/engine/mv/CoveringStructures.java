package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.MaterializedViewOperations;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.txn.Transaction;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Finds the links between materialized views and the unique indexes they cover (semantics §6).
 * A link is proved from the catalog snapshot that asks, never stored in the catalog: catalog
 * objects are immutable, and every DDL that could make or break a link (create, drop or
 * re-create of the MV or the index, a refresh, staleness, a re-attach or detach, a rename)
 * replaces the {@link TableSchema} of the MV or of a table its body reads (for a 1:1 join, DDL on
 * the lookup table matters too: it may become maintained and so lag the driving table). So a
 * proof is kept with the objects it was made for, the MV and every table it reads, and reused
 * only while the catalog still holds those very objects; it cannot outlive what proved it. Only the per-row arm and the ordered 1:1 join can enforce, so only their MVs keep
 * their proof (on the arm, so it goes with the MV): a statement writing a table then pays no bind
 * of their bodies.
 */
final class CoveringStructures {
    private CoveringStructures() {
    }

    /** The links proved for one MV and one source, with the tables the MV read when they were proved. */
    record Proof(TableSchema mv, TableSchema source, List<TableSchema> read, List<CoveringLink> links) {
        boolean provedFor(TableSchema mv, TableSchema source, List<TableSchema> read) {
            if (this.mv != mv || this.source != source || this.read.size() != read.size()) {
                return false;
            }
            for (int i = 0; i < read.size(); i++) {
                if (this.read.get(i) != read.get(i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The constraints {@code mv} covers, as {@code t(a, b)}, separated by {@code ; }; null when none. */
    static String covers(Catalog catalog, TableSchema mv) {
        if (mv.derivation().stale()) {
            return null; // a stale MV no longer follows its sources, so it covers nothing until refreshed
        }
        StringJoiner covered = new StringJoiner("; ");
        for (String key : mv.derivation().sources()) {
            Optional<TableSchema> source = catalog.tableByKey(key);
            if (source.isPresent()) {
                links(catalog, mv, source.get()).forEach(l -> covered.add(l.describe(source.get())));
            }
        }
        return covered.length() == 0 ? null : covered.toString();
    }

    /**
     * The probes that answer the conflict checks of {@code source}'s unique indexes, by index
     * name: for each index, the first MV (in creation order) whose link {@link CoveringLink#enforces
     * enforces} (under {@code pragma foreign_keys} as it now is); an index without one keeps its
     * own entries as the answer.
     */
    static Map<String, MaterializedViewOperations.UniqueProbe> probes(Transaction transaction, TableSchema source,
                                                                       boolean foreignKeysOn) {
        if (!hasUniqueIndex(source)) {
            return Map.of(); // most tables: every write statement asks, so no map and no stream
        }
        Map<String, MaterializedViewOperations.UniqueProbe> probes = new LinkedHashMap<>();
        Catalog catalog = transaction.catalog();
        for (TableSchema mv : catalog.dependentsOf(source)) {
            if (!CoveringLink.currentRowByRow(mv, source)) {
                continue; // it could not enforce, so its body need not be bound
            }
            for (CoveringLink link : links(catalog, mv, source)) {
                if (link.enforces(source, foreignKeysOn)) {
                    probes.putIfAbsent(link.index().name(), row -> candidateKeys(transaction, link, row));
                }
            }
        }
        return probes;
    }

    private static boolean hasUniqueIndex(TableSchema table) {
        List<IndexSchema> indexes = table.constraints().indexes();
        for (int i = 0; i < indexes.size(); i++) {
            if (indexes.get(i).unique()) {
                return true;
            }
        }
        return false;
    }

    private static List<CoveringLink> links(Catalog catalog, TableSchema mv, TableSchema source) {
        if (!CoveringLink.currentRowByRow(mv, source)) {
            return prove(catalog, mv, source);
        }
        MaintenanceArm arm = MaintenanceArm.of(mv);
        List<TableSchema> read = new ArrayList<>();
        for (String key : mv.derivation().sources()) {
            read.add(catalog.tableByKey(key).orElse(null));
        }
        Proof proof = arm.coverage();
        if (proof == null || !proof.provedFor(mv, source, read)) {
            proof = new Proof(mv, source, read, prove(catalog, mv, source));
            arm.coverage(proof);
        }
        return proof.links();
    }

    private static List<CoveringLink> prove(Catalog catalog, TableSchema mv, TableSchema source) {
        PlanNode plan;
        try {
            plan = new QueryBinder(catalog, mv.derivation().bodySql()).bind(mv.derivation().body());
        } catch (DeriveException noLongerPlans) {
            return List.of();
        }
        List<CoveringLink> links = new ArrayList<>();
        for (IndexSchema index : source.constraints().indexes()) {
            if (index.unique()) {
                try {
                    CoverageProver.prove(mv, plan, source, index, catalog).ifPresent(links::add);
                } catch (DeriveException predicateNoLongerBinds) {
                    // not proved, so not covering: the index's own entries answer
                }
            }
        }
        return List.copyOf(links);
    }

    /**
     * A key-prefix seek on the backing (pending over committed): the MV rows sharing the new
     * row's indexed values under the backing's collation, each turned back into its source key.
     */
    private static List<Object[]> candidateKeys(Transaction transaction, CoveringLink link, Object[] row) {
        TableSchema mv = link.mv();
        BackingHost host = mv.storage().backingHost().orElseThrow(() -> new DeriveException(DeriveException.INTERNAL,
                "the storage of materialized view '" + mv.qualifiedName() + "' lost its backing host"));
        List<Object[]> keys = new ArrayList<>();
        try (RowCursor rows = host.scanEffective(transaction.connection(mv), link.prefix(row), false)) {
            while (rows.hasNext()) {
                keys.add(link.sourceKey(rows.next()));
            }
        }
        mv.derivation().statistics().uniqueProbed(keys.size());
        return keys;
    }
}
