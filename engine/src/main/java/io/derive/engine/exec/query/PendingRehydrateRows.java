package io.derive.engine.exec.query;

import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.txn.PendingRehydrates;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** The rows of {@code rehydrate_pending()}: each pending view with the round it may be refilled in. */
final class PendingRehydrateRows {
    private PendingRehydrateRows() {
    }

    static List<Object[]> of(List<PendingRehydrates.Pending> pending, Catalog catalog) {
        Map<HostedTable, PendingRehydrates.Pending> byStorage = new IdentityHashMap<>();
        pending.forEach(p -> byStorage.put(p.object().storage(), p));
        Map<HostedTable, Long> rounds = new IdentityHashMap<>();
        List<Object[]> rows = new ArrayList<>();
        for (PendingRehydrates.Pending p : pending) {
            TableSchema view = p.object();
            rows.add(new Object[] {view.schema(), view.name(), round(view, byStorage, rounds, catalog), p.reason(),
                p.claimedBy() != null});
        }
        rows.sort(Comparator.<Object[], Long>comparing(r -> (Long) r[2]).thenComparing(r -> (String) r[0])
                .thenComparing(r -> (String) r[1]));
        return rows;
    }

    /** 1 when no source of {@code view} is pending, else one more than the highest round of those that are. */
    private static long round(TableSchema view, Map<HostedTable, PendingRehydrates.Pending> pending,
                              Map<HostedTable, Long> rounds, Catalog catalog) {
        Long known = rounds.get(view.storage());
        if (known != null) {
            return known;
        }
        long round = 1;
        for (String source : view.derivation().sources()) {
            TableSchema table = catalog.tableByKey(source).orElse(null);
            if (table != null && pending.containsKey(table.storage())) {
                round = Math.max(round, 1 + round(table, pending, rounds, catalog));
            }
        }
        rounds.put(view.storage(), round);
        return round;
    }
}
