package io.derive.engine.durable;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Session;
import io.derive.engine.exec.context.EngineServices;
import io.derive.engine.exec.context.Rehydration;
import io.derive.engine.schema.CanonicalDdl;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.InDoubtFences;
import io.derive.engine.txn.PendingRehydrates;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Rehydrate (semantics §8): replays a durable catalog when its database opens. Phase 1 recreates
 * every table — a materialized view's backing too — as a plain table over its stored storage;
 * phase 2 the views; phase 3 the materialized views, in rounds so that an MV over MVs comes after
 * them, each either <em>adopted</em> (its backing's rows registered as they are, its body not
 * run) when every adopt gate holds, or <em>refilled</em> from its body. A per-MV failure leaves
 * its backing a plain table, keeps its stored definition and is reported; it does not stop the
 * open.
 *
 * <p>A reopened table takes the row count the last clean close stored, and a secondary index the
 * entries its host kept, so that an open after a clean close costs what the catalog costs; a
 * table counted and an index built because their stored state could not be trusted are reported.
 *
 * <p>What in-doubt branches of an ended process wrote ({@link HostedTable#inDoubtWriters()}) is
 * of unknown outcome: such a table is reopened but neither counted nor read; a materialized view
 * whose backing or source (directly or through other views) holds such writes is registered
 * without a fill, neither adopted nor refilled. Both are fenced ({@link InDoubtFences}) and
 * reported as waiting; {@link #decided} restores them once their branches are decided.
 *
 * <p>When refills are deferred ({@code RehydrateMode.DEFERRED}) a materialized view that would be
 * refilled is registered without a fill instead, as a waiting one is, and left
 * {@linkplain PendingRehydrates pending} for {@code rehydrate materialized view}; so is one that
 * waited, once decided, when it would be refilled. Its stored definition is written in the
 * durable stale set, so that an open before its refill refills it again; its refill takes it out.
 */
public final class Rehydrator implements Rehydration {
    private static final System.Logger LOG = System.getLogger(Rehydrator.class.getName());

    private final DurableCatalog catalog;
    private final EngineServices services;
    private final Map<String, CatalogEntry> tables = new HashMap<>();
    private final Set<String> reopened = new HashSet<>();
    private final List<RehydrateReport.Outcome> outcomes = new ArrayList<>();
    private final List<RehydrateReport.Repair> repairs = new ArrayList<>();
    /** Lower-case qualified names of the materialized views adopted so far. */
    private final Set<String> adopted = new HashSet<>();
    private final InDoubtWaits waits = new InDoubtWaits();
    private final boolean deferred;
    /** The views left pending by this open, by lower-case qualified name: their entries and why they must be refilled. */
    private final Map<String, DeferredView> deferredViews = new java.util.LinkedHashMap<>();
    /** Lower-case qualified names of the views that waited and could not be restored after: fenced until the next open. */
    private final Set<String> unrestored = new HashSet<>();
    private String adopting;
    /** The stale view being refilled, while its derivation is attached. */
    private String refillingStale;

    private record DeferredView(CatalogEntry entry, String reason) {
    }

    /** @param deferRefills leave the views that would be refilled pending instead of refilling them */
    public Rehydrator(DurableCatalog catalog, EngineServices services, boolean deferRefills) {
        this.catalog = catalog;
        this.services = services;
        this.deferred = deferRefills;
        for (CatalogEntry e : catalog.entries()) {
            if (e.kind().equals(CatalogEntry.TABLE)) {
                tables.put(e.qualifiedName(), e);
            }
        }
    }

    /**
     * Runs the three phases through {@code session}, then writes back what changed (a refilled MV
     * is no longer stale, a pending one is), lets every module release storage no table uses, and
     * fences what waits for in-doubt branches and what is pending.
     *
     * @throws DeriveException when a table cannot be restored (its storage is missing or does not
     *         fit): that is damage, not a definition to report and skip
     */
    public RehydrateReport run(Session session) {
        Set<String> keep = new HashSet<>();
        services.rehydration(this);
        try {
            for (CatalogEntry e : catalog.entries()) {
                if (e.kind().equals(CatalogEntry.TABLE)) {
                    session.execute(e.sql());
                }
            }
            for (CatalogEntry e : catalog.entries()) {
                if (e.kind().equals(CatalogEntry.INDEX)) {
                    session.execute(e.sql());
                }
            }
            views(session, keep);
            materializedViews(session, keep);
            schedules(session, keep);
        } finally {
            services.rehydration(null);
        }
        Set<String> untrusted = new HashSet<>();
        deferredViews.values().forEach(v -> untrusted.add(v.entry().key()));
        catalog.sync(services.committed().catalog(), keep, untrusted);
        for (TableModule module : services.modules()) {
            module.sweep();
        }
        fence();
        return report();
    }

    /** True while something waits for an in-doubt branch. */
    public boolean waiting() {
        return !waits.isEmpty();
    }

    /**
     * What in-doubt branch {@code xid} wrote, as {@link io.derive.engine.api.InDoubtBranch#touched()}
     * names it: each table with its secondary indexes, and each materialized view whose backing it wrote.
     */
    public List<String> touchedBy(BranchId xid) {
        Catalog current = services.committed().catalog();
        List<String> touched = new ArrayList<>();
        for (String name : waits.writtenBy(xid)) {
            current.tableByKey(name).ifPresent(t -> {
                touched.add((t.isMaintained() ? "materialized view " : "table ") + t.qualifiedName());
                t.constraints().indexes().stream().filter(i -> !i.constraint())
                        .forEach(i -> touched.add("index " + t.schema() + "." + i.name()));
            });
        }
        return touched;
    }

    /**
     * In-doubt branch {@code xid} has been decided ({@code committed} or rolled back) and its
     * host has completed it: restores, through {@code session} (one of the database's own), what
     * waited for it alone — materialized views adopted when every adopt gate holds (the branch
     * maintained a Derby view with its sources), else refilled — then lifts their fences and
     * those of the tables it wrote.
     *
     * @return the report, its waiting entries for what is restored now replaced by what was done
     */
    public RehydrateReport decided(BranchId xid, boolean committed, Session session) {
        InDoubtWaits.Freed freed = waits.decided(xid);
        String outcome = "once in-doubt transaction " + xid + " was " + (committed ? "committed" : "rolled back");
        for (String table : freed.tables()) {
            repairs.replaceAll(r -> r.work() != RehydrateReport.Work.WAITING || !key(r.schema() + "." + r.table()).equals(table) ? r
                    : r.index() == null
                    ? new RehydrateReport.Repair(r.schema(), r.table(), null, RehydrateReport.Work.COUNTED, "counted " + outcome)
                    : new RehydrateReport.Repair(r.schema(), r.table(), r.index(), RehydrateReport.Work.REBUILT, "built " + outcome));
        }
        for (InDoubtWaits.WaitingView view : freed.views()) {
            RehydrateReport.Outcome restored = restoreAfterWait(session, view.entry(), outcome);
            outcomes.replaceAll(o -> key(o.schema() + "." + o.name()).equals(key(view.entry().qualifiedName())) ? restored : o);
        }
        services.committed().fences().lift(xid);
        return report();
    }

    private RehydrateReport report() {
        return new RehydrateReport(catalog.lastCloseClean(), outcomes, repairs);
    }

    /** Fences every table that holds in-doubt writes and every materialized view that waits. */
    private void fence() {
        Catalog current = services.committed().catalog();
        InDoubtFences fences = services.committed().fences();
        waits.written().forEach((name, writers) -> current.tableByKey(name)
                .ifPresent(table -> fences.fence(table, writers, ", which wrote it")));
        for (InDoubtWaits.WaitingView view : waits.views()) {
            current.tableByKey(key(view.entry().qualifiedName()))
                    .ifPresent(mv -> fences.fence(mv, view.waitingFor(), view.because()));
        }
        deferredViews.forEach((name, view) -> current.tableByKey(name)
                .ifPresent(mv -> services.committed().pendingRehydrates().pending(mv, view.reason())));
    }

    @Override
    public Optional<HostedTable> reopen(TableModule module, TableShape shape) {
        CatalogEntry entry = tables.get(shape.schema() + "." + shape.name());
        if (entry == null || entry.storage() == null) {
            return Optional.empty();
        }
        OptionalLong rows = catalog.storedRows(entry.qualifiedName());
        Optional<HostedTable> stored = module.reopen(entry.storage(), shape, rows);
        if (stored.isEmpty() && !entry.maintained()) {
            // A materialized view's backing can be refilled from its body; a table's rows cannot.
            throw new DeriveException(DeriveException.INTERNAL, "table " + entry.qualifiedName() + ": its storage "
                    + entry.storage() + " is missing from table module '" + module.name() + "'");
        }
        if (stored.isPresent()) {
            reopened.add(entry.qualifiedName());
            List<BranchId> writers = stored.get().inDoubtWriters().stream().map(BranchId::of).toList();
            if (!writers.isEmpty()) {
                waits.written(entry.qualifiedName(), writers);
                if (!entry.maintained()) {
                    // A view's own outcome says that its backing waits.
                    repairs.add(new RehydrateReport.Repair(shape.schema(), shape.name(), null, RehydrateReport.Work.WAITING,
                            InDoubtFences.waitsFor(waits.writers(entry.qualifiedName())) + ", which wrote it"));
                }
            } else if (rows.isEmpty()) {
                repairs.add(new RehydrateReport.Repair(shape.schema(), shape.name(), null, RehydrateReport.Work.COUNTED,
                        catalog.lastCloseClean() ? "the last close stored no row count for it"
                                : "the last close was not clean, so no stored row count holds"));
            }
        }
        return stored;
    }

    @Override
    public void restoreIndex(String schema, String table, HostedTable storage, IndexShape index) {
        boolean kept = reopened.contains(schema + "." + table);
        if (kept && storage.reopenIndex(index)) {
            return;
        }
        storage.createIndex(index);
        Set<BranchId> writers = waits.writers(schema + "." + table);
        repairs.add(writers.isEmpty()
                ? new RehydrateReport.Repair(schema, table, index.name(), RehydrateReport.Work.REBUILT,
                        kept ? "its host kept no entries known to be current" : "its table's storage was not kept")
                : new RehydrateReport.Repair(schema, table, index.name(), RehydrateReport.Work.WAITING,
                        InDoubtFences.waitsFor(writers) + ", which wrote its table; built once decided"));
    }

    @Override
    public boolean adopts(String qualifiedName) {
        return qualifiedName.equals(adopting);
    }

    @Override
    public boolean refillsStale(String qualifiedName) {
        return qualifiedName.equals(refillingStale);
    }

    /** Views in rounds: one that reads a view not recreated yet waits for the next round. */
    private void views(Session session, Set<String> keep) {
        List<CatalogEntry> pending = new ArrayList<>(catalog.entries().stream()
                .filter(e -> e.kind().equals(CatalogEntry.VIEW)).toList());
        boolean progress = true;
        Map<String, DeriveException> failures = new HashMap<>();
        while (!pending.isEmpty() && progress) {
            progress = false;
            for (CatalogEntry view : List.copyOf(pending)) {
                try {
                    session.execute(view.sql());
                    pending.remove(view);
                    progress = true;
                } catch (DeriveException e) {
                    failures.put(view.key(), e);
                }
            }
        }
        for (CatalogEntry view : pending) {
            keep.add(view.key());
            LOG.log(Level.WARNING, "view {0} could not be restored: {1}", view.qualifiedName(),
                    failures.get(view.key()).getMessage());
        }
    }

    /** Materialized views in rounds: one whose body reads a materialized view not processed yet waits. */
    private void materializedViews(Session session, Set<String> keep) {
        List<CatalogEntry> pending = new ArrayList<>(catalog.entries().stream().filter(CatalogEntry::maintained).toList());
        while (!pending.isEmpty()) {
            Set<String> waiting = new HashSet<>();
            pending.forEach(e -> waiting.add(key(e.qualifiedName())));
            List<CatalogEntry> round = pending.stream()
                    .filter(e -> sources(e).stream().noneMatch(waiting::contains)).toList();
            if (round.isEmpty()) {
                round = List.copyOf(pending);
            }
            for (CatalogEntry mv : round) {
                pending.remove(mv);
                RehydrateReport.Outcome outcome = restoreOrWait(session, mv);
                outcomes.add(outcome);
                if (outcome.action() == RehydrateReport.Action.ADOPTED) {
                    adopted.add(key(mv.qualifiedName()));
                } else if (outcome.action() == RehydrateReport.Action.FAILED || outcome.action() == RehydrateReport.Action.WAITING) {
                    // A waiting view's stored definition (its stale flag) holds until it is restored.
                    keep.add(mv.key());
                }
                LOG.log(outcome.action() == RehydrateReport.Action.FAILED ? Level.WARNING : Level.INFO,
                        "materialized view {0}: {1}{2}", mv.qualifiedName(), outcome.action().name().toLowerCase(),
                        outcome.reason() == null ? "" : " (" + outcome.reason() + ")");
            }
        }
    }

    /**
     * Sets the refresh schedule of every materialized view that has one; the schedule of a view
     * that failed to be restored, a plain table now, keeps its entry with the view's definition.
     */
    private void schedules(Session session, Set<String> keep) {
        Catalog current = services.committed().catalog();
        for (CatalogEntry schedule : catalog.entries()) {
            if (schedule.kind().equals(CatalogEntry.SCHEDULE)) {
                if (current.table(schedule.schema(), schedule.name()).filter(TableSchema::isMaintained).isPresent()) {
                    session.execute(schedule.sql());
                } else {
                    keep.add(schedule.key());
                }
            }
        }
    }

    /**
     * Restores {@code mv}, or — when it waits for in-doubt branches — registers it without a fill,
     * as an adopted view is: its backing holds what it held, unread.
     */
    private RehydrateReport.Outcome restoreOrWait(Session session, CatalogEntry mv) {
        Optional<InDoubtWaits.WaitingView> wait = waits.waitOf(mv, sources(mv));
        if (wait.isEmpty()) {
            String refillReason = refillReason(mv);
            return refillReason != null && deferred ? pend(session, mv, refillReason) : restore(session, mv, refillReason, refillReason != null);
        }
        RehydrateReport.Outcome attached = restore(session, mv, null, false);
        if (attached.action() == RehydrateReport.Action.FAILED) {
            return attached;
        }
        waits.waiting(wait.get());
        return new RehydrateReport.Outcome(mv.schema(), mv.name(), RehydrateReport.Action.WAITING,
                InDoubtFences.waitsFor(wait.get().waitingFor()) + wait.get().because());
    }

    /**
     * Restores a view that waited, now that what it waited for is decided: adopts it when every
     * adopt gate holds (it is registered already), else refills it from its body. One that
     * cannot be refilled, or reads one that could not, stays fenced until the database reopens,
     * which refills it.
     */
    private RehydrateReport.Outcome restoreAfterWait(Session session, CatalogEntry mv, String outcome) {
        Optional<String> unrestoredSource = sources(mv).stream().filter(unrestored::contains).findFirst();
        if (unrestoredSource.isPresent()) {
            return unrestored(mv, "its source " + unrestoredSource.get() + " could not be refilled " + outcome);
        }
        String refillReason = refillReason(mv);
        if (refillReason == null) {
            adopted.add(key(mv.qualifiedName()));
            return new RehydrateReport.Outcome(mv.schema(), mv.name(), RehydrateReport.Action.ADOPTED, null);
        }
        if (deferred) {
            // Registered already, without a fill: it now waits for its refill instead.
            catalog.untrusted(mv.key());
            services.committed().catalog().tableByKey(key(mv.qualifiedName()))
                    .ifPresent(table -> services.committed().pendingRehydrates().pending(table, refillReason));
            return new RehydrateReport.Outcome(mv.schema(), mv.name(), RehydrateReport.Action.PENDING, refillReason);
        }
        try {
            session.execute("refresh materialized view " + CanonicalDdl.identifier(mv.schema()) + "."
                    + CanonicalDdl.identifier(mv.name()));
            return new RehydrateReport.Outcome(mv.schema(), mv.name(), RehydrateReport.Action.REFILLED,
                    refillReason + "; refilled " + outcome);
        } catch (DeriveException e) {
            return unrestored(mv, "could not be refilled " + outcome + ": " + e.getMessage());
        }
    }

    private RehydrateReport.Outcome unrestored(CatalogEntry mv, String failure) {
        unrestored.add(key(mv.qualifiedName()));
        services.committed().catalog().tableByKey(key(mv.qualifiedName())).ifPresent(table -> services.committed().fences()
                .fenceUntilReopen(table, "materialized view '" + table.qualifiedName() + "' " + failure
                        + "; it is refilled when the database next opens"));
        return new RehydrateReport.Outcome(mv.schema(), mv.name(), RehydrateReport.Action.FAILED, failure);
    }

    /**
     * Leaves {@code mv}, which would be refilled, pending: registers it without a fill (a stale
     * one in the shape its body now derives, as its refill would give it) for a later refill.
     */
    private RehydrateReport.Outcome pend(Session session, CatalogEntry mv, String refillReason) {
        RehydrateReport.Outcome attached = restore(session, mv, refillReason, false);
        if (attached.action() == RehydrateReport.Action.FAILED) {
            return attached;
        }
        deferredViews.put(key(mv.qualifiedName()), new DeferredView(mv, refillReason));
        return new RehydrateReport.Outcome(mv.schema(), mv.name(), RehydrateReport.Action.PENDING, refillReason);
    }

    /**
     * Attaches {@code mv}'s derivation, filling it from its body when {@code fill} (refilled),
     * else taking its backing's rows as they are (adopted, or left for a later refill);
     * {@code refillReason} is null when every adopt gate holds.
     */
    private RehydrateReport.Outcome restore(Session session, CatalogEntry mv, String refillReason, boolean fill) {
        String name = CanonicalDdl.identifier(mv.schema()) + "." + CanonicalDdl.identifier(mv.name());
        try {
            if (fill) {
                // the open writes the refill before the database persists through the catalog
                catalog.markOpen();
            }
            adopting = fill ? null : mv.qualifiedName();
            refillingStale = refillReason != null && mv.stale() ? mv.qualifiedName() : null;
            session.execute("alter table " + name + " set maintained as " + mv.body());
            if (mv.tags() != null) {
                session.execute("alter materialized view " + name + " set tags " + mv.tags());
            }
            return new RehydrateReport.Outcome(mv.schema(), mv.name(),
                    fill ? RehydrateReport.Action.REFILLED : RehydrateReport.Action.ADOPTED, refillReason);
        } catch (DeriveException e) {
            return new RehydrateReport.Outcome(mv.schema(), mv.name(), RehydrateReport.Action.FAILED, e.getMessage());
        } finally {
            adopting = null;
            refillingStale = null;
        }
    }

    /** Null when every adopt gate holds; otherwise the first that does not, as the report says it. */
    private String refillReason(CatalogEntry mv) {
        Catalog current = services.committed().catalog();
        TableSchema backing = current.table(mv.schema(), mv.name()).orElse(null);
        String host = catalog.host().name();
        if (backing == null || !backing.module().equals(host)) {
            return "its host '" + (backing == null ? "?" : backing.module()) + "' keeps nothing across opens";
        }
        if (!reopened.contains(mv.qualifiedName())) {
            return "its backing table was not found";
        }
        if (mv.stale()) {
            return "it is in the durable stale set";
        }
        if (!CatalogEntries.bodyHash(current, mv.body(), sources(mv)).equals(mv.bodyHash())) {
            return "its body hash does not match";
        }
        for (String source : sources(mv)) {
            Optional<TableSchema> table = current.tableByKey(source);
            if (table.isEmpty() || !table.get().module().equals(host)) {
                return "source " + source + " is not in the same " + host + " database";
            }
            if (tables.containsKey(table.get().qualifiedName()) && tables.get(table.get().qualifiedName()).maintained()
                    && !adopted.contains(source)) {
                return "source " + source + " was not adopted";
            }
        }
        return null;
    }

    private static List<String> sources(CatalogEntry mv) {
        return mv.sources() == null || mv.sources().isEmpty() ? List.of() : Arrays.asList(mv.sources().split(","));
    }

    private static String key(String qualifiedName) {
        return qualifiedName.toLowerCase(java.util.Locale.ROOT);
    }
}
