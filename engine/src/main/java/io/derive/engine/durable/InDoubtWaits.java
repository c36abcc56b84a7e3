package io.derive.engine.durable;

import io.derive.engine.api.BranchId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What waits for the outcome of in-doubt branches a process that ended left prepared, from a
 * durable database's open until they are decided: the tables (materialized-view backings
 * included) whose storage they wrote, and the materialized views over those, directly or
 * through other views — each with the branches it waits for. Keys are lower-case qualified names.
 */
final class InDoubtWaits {

    /**
     * A materialized view that waits.
     *
     * @param waitingFor the branches, shrinking as they are decided
     * @param because    what it waits through, as a message continues {@code waits for … transaction X}
     */
    record WaitingView(CatalogEntry entry, Set<BranchId> waitingFor, String because) {
    }

    /** What a decision freed: tables and views that wait for nothing any more, views in dependency order. */
    record Freed(List<String> tables, List<WaitingView> views) {
    }

    private final Map<String, Set<BranchId>> written = new LinkedHashMap<>();
    private final Map<String, WaitingView> views = new LinkedHashMap<>();

    /** The table {@code qualifiedName} holds what {@code writers} wrote. */
    void written(String qualifiedName, Collection<BranchId> writers) {
        written.computeIfAbsent(key(qualifiedName), k -> new LinkedHashSet<>()).addAll(writers);
    }

    /** The branches whose writes {@code qualifiedName} holds; empty when none. */
    Set<BranchId> writers(String qualifiedName) {
        return written.getOrDefault(key(qualifiedName), Set.of());
    }

    /** The lower-case qualified names of the tables that hold writes of {@code xid}. */
    List<String> writtenBy(BranchId xid) {
        return written.entrySet().stream().filter(e -> e.getValue().contains(xid)).map(Map.Entry::getKey).toList();
    }

    Map<String, Set<BranchId>> written() {
        return written;
    }

    Collection<WaitingView> views() {
        return views.values();
    }

    boolean isEmpty() {
        return written.isEmpty() && views.isEmpty();
    }

    /**
     * The wait of materialized view {@code mv} reading {@code sources}: for the branches that
     * wrote its backing or a source, or that a source view waits for; empty when it need not wait.
     * Sources are examined before it: rehydrate restores a view after the views it reads.
     */
    Optional<WaitingView> waitOf(CatalogEntry mv, List<String> sources) {
        Set<BranchId> waitingFor = new LinkedHashSet<>(writers(mv.qualifiedName()));
        String because = waitingFor.isEmpty() ? null : "which wrote it";
        for (String source : sources) {
            Set<BranchId> direct = writers(source);
            WaitingView through = views.get(key(source));
            if (!direct.isEmpty()) {
                waitingFor.addAll(direct);
                because = because != null ? because : "which wrote its source " + source;
            } else if (through != null) {
                waitingFor.addAll(through.waitingFor());
                because = because != null ? because : "for its source " + source + ", which waits too";
            }
        }
        return waitingFor.isEmpty() ? Optional.empty() : Optional.of(new WaitingView(mv, waitingFor, ", " + because));
    }

    /** {@code view} is registered and waits. */
    void waiting(WaitingView view) {
        views.put(key(view.entry().qualifiedName()), view);
    }

    /** Branch {@code xid} is decided: what waited for it alone no longer waits. */
    Freed decided(BranchId xid) {
        List<String> tables = free(written, xid, writers -> writers);
        tables.forEach(written::remove);
        List<String> freedViews = free(views, xid, WaitingView::waitingFor);
        return new Freed(tables, freedViews.stream().map(views::remove).toList());
    }

    /** Takes {@code xid} out of every wait of {@code waits}; the names of those left waiting for nothing. */
    private static <V> List<String> free(Map<String, V> waits, BranchId xid, Function<V, Set<BranchId>> waitingFor) {
        List<String> freed = new ArrayList<>();
        waits.forEach((name, wait) -> {
            Set<BranchId> branches = waitingFor.apply(wait);
            if (branches.remove(xid) && branches.isEmpty()) {
                freed.add(name);
            }
        });
        return freed;
    }

    private static String key(String qualifiedName) {
        return qualifiedName.toLowerCase(Locale.ROOT);
    }
}
