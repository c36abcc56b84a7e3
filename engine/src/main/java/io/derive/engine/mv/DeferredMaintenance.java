package io.derive.engine.mv;

import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.query.EqualityKey;
import io.derive.engine.schema.TableSchema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The maintenance one statement defers to its end: MVs to rebuild, for each slice-recompute MV
 * the slices its source writes touched (keys as SQL-equality keys, with their values), and for
 * each fast-path group MV the working states of the groups its source writes touched.
 */
final class DeferredMaintenance {
    private final Map<String, TableSchema> rebuilds = new LinkedHashMap<>();
    private final Map<String, TableSchema> grouped = new LinkedHashMap<>();
    private final Map<String, Map<List<Object>, Object[]>> groups = new LinkedHashMap<>();
    private final Map<String, TableSchema> delta = new LinkedHashMap<>();
    private final Map<String, GroupChanges> changes = new LinkedHashMap<>();

    /** The statement's deferred maintenance, created at its first deferral. */
    static DeferredMaintenance of(ExecutionContext context) {
        return context.work().part(DeferredMaintenance.class, DeferredMaintenance::new);
    }

    void rebuild(TableSchema mv) {
        rebuilds.put(mv.key(), mv);
    }

    void slice(TableSchema mv, SliceRecompute arm, Object[] group) {
        grouped.put(mv.key(), mv);
        groups.computeIfAbsent(mv.key(), k -> new LinkedHashMap<>()).putIfAbsent(EqualityKey.of(group, arm.collations()), group);
    }

    /** The statement's group changes of a fast-path group MV, created at its first source write. */
    GroupChanges groupChanges(TableSchema mv) {
        delta.put(mv.key(), mv);
        return changes.computeIfAbsent(mv.key(), k -> new GroupChanges());
    }

    boolean isEmpty() {
        return rebuilds.isEmpty() && grouped.isEmpty() && delta.isEmpty();
    }

    /** Every MV with pending work. */
    List<TableSchema> pending() {
        List<TableSchema> all = new ArrayList<>(rebuilds.values());
        grouped.values().stream().filter(mv -> !rebuilds.containsKey(mv.key())).forEach(all::add);
        delta.values().stream().filter(mv -> !rebuilds.containsKey(mv.key()) && !grouped.containsKey(mv.key()))
                .forEach(all::add);
        return all;
    }

    /** Removes and returns the MV's pending slices (empty when it has none). */
    List<Object[]> takeSlices(TableSchema mv) {
        grouped.remove(mv.key());
        Map<List<Object>, Object[]> taken = groups.remove(mv.key());
        return taken == null ? List.of() : List.copyOf(taken.values());
    }

    /** Removes and returns the MV's pending group changes, or null when it has none. */
    GroupChanges takeGroupChanges(TableSchema mv) {
        delta.remove(mv.key());
        return changes.remove(mv.key());
    }

    /** Removes the MV's pending rebuild; true when there was one. */
    boolean takeRebuild(TableSchema mv) {
        return rebuilds.remove(mv.key()) != null;
    }
}
