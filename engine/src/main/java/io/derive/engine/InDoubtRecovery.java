package io.derive.engine;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.InDoubtBranch;
import io.derive.engine.api.Session;
import io.derive.engine.durable.DurableCatalog;
import io.derive.engine.durable.HeuristicOutcomes;
import io.derive.engine.durable.Rehydrator;
import io.derive.engine.exec.context.EngineServices;
import io.derive.engine.spi.TableModule;
import io.derive.engine.txn.InDoubtFences;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The branches a process that ended left prepared on the durable host of one database, from
 * its open until each is decided, and the operators' decisions of them until they are forgotten.
 * While a branch that changed the catalog is undecided the database cannot open: its catalog
 * entries are of unknown outcome, so every statement fails and rehydrate waits. Otherwise the
 * database opens at once and only what the branches wrote, and the views over it, wait (see
 * {@link Rehydrator}); each decision restores what waited for it.
 *
 * <p>Decisions are serialized; the listing is a snapshot taken after each, so that reading it
 * never waits for a decision (which may wait for a lock to refill a view).
 */
final class InDoubtRecovery {
    private static final System.Logger LOG = System.getLogger(InDoubtRecovery.class.getName());
    private static final String CATALOG = "catalog";

    private final String database;
    private final TableModule host;
    private final EngineServices services;
    private final HeuristicOutcomes heuristics;
    /** Rehydrates the database; its argument says whether the host held in-doubt branches at the open. */
    private final Function<Boolean, Rehydrator> rehydrate;
    private boolean branchesAtOpen;
    private final Supplier<Session> ownSession;
    /** The branches the ended process left prepared, as found at the open, until they are completed. */
    private final Set<BranchId> undecided = new LinkedHashSet<>();
    /** Those of them that changed the catalog: the database opens once none is left. */
    private final Set<BranchId> changedCatalog = new LinkedHashSet<>();
    /** The rehydrate whose tables and views wait, while any does. */
    private Rehydrator waiting;
    private volatile List<InDoubtBranch> listing = List.of();
    // What Database.status() reads without waiting for this object's monitor.
    private volatile int catalogWaits;
    private volatile String catalogWaitReason = "";
    private volatile boolean rehydrating;

    private InDoubtRecovery(String database, TableModule host, EngineServices services,
                            Function<Boolean, Rehydrator> rehydrate, Supplier<Session> ownSession) {
        this.database = database;
        this.host = host;
        this.services = services;
        this.heuristics = HeuristicOutcomes.open(host);
        this.rehydrate = rehydrate;
        this.ownSession = ownSession;
    }

    /**
     * Finishes the operators' decisions a crash interrupted, then opens the database through
     * {@code rehydrate} — at once, unless an undecided branch changed the catalog.
     *
     * @param rehydrate  rehydrates the database, fencing what waits for in-doubt branches
     * @param ownSession a new session of the database's own
     */
    static InDoubtRecovery open(String database, TableModule host, EngineServices services,
                                Function<Boolean, Rehydrator> rehydrate, Supplier<Session> ownSession) {
        InDoubtRecovery recovery = new InDoubtRecovery(database, host, services, rehydrate, ownSession);
        recovery.start();
        return recovery;
    }

    private void start() {
        host.inDoubt().forEach(x -> undecided.add(BranchId.of(x)));
        branchesAtOpen = !undecided.isEmpty();
        for (HeuristicOutcomes.Decision d : heuristics.all()) {
            if (undecided.remove(d.xid())) {
                host.completeInDoubt(d.xid(), d.committed());
                LOG.log(Level.INFO, "database ''{0}'': finished the heuristic decision of in-doubt transaction {1}", database, d.xid());
            }
        }
        if (!undecided.isEmpty()) {
            changedCatalog.addAll(DurableCatalog.inDoubtWriters(host));
        }
        if (changedCatalog.isEmpty()) {
            rehydrateNow();
        } else {
            waitForCatalog();
            LOG.log(Level.WARNING, "database ''{0}'' {1}", database, catalogWait());
        }
        if (!undecided.isEmpty()) {
            LOG.log(Level.WARNING, "database ''{0}'': in-doubt transactions {1} wait for their transaction manager (or an "
                    + "operator) to commit or roll them back; what they wrote is fenced until then", database, undecided);
        }
        list();
    }

    /** How many undecided branches that changed the catalog keep the whole database waiting; read without a lock. */
    int catalogWaits() {
        return catalogWaits;
    }

    /** Why the whole database waits, while {@link #catalogWaits()} is positive; read without a lock. */
    String catalogWait() {
        return catalogWaitReason;
    }

    /** True while the rehydrate after the last catalog-changing branch's decision runs; read without a lock. */
    boolean rehydrating() {
        return rehydrating;
    }

    /** Fails every statement, and tells the status, while branches that changed the catalog are undecided. */
    private void waitForCatalog() {
        catalogWaitReason = catalogWaitText();
        catalogWaits = changedCatalog.size();
        services.unavailable(catalogWaitReason);
    }

    private String catalogWaitText() {
        return InDoubtFences.waitsFor(changedCatalog) + ", which a process left prepared and which changed its catalog; "
                + "it opens once " + (changedCatalog.size() == 1 ? "it is" : "they are") + " committed or rolled back";
    }

    private void rehydrateNow() {
        Rehydrator rehydrator = rehydrate.apply(branchesAtOpen);
        waiting = rehydrator.waiting() ? rehydrator : null;
    }

    /**
     * The transaction manager's decision of a branch no live session carries.
     *
     * @throws DeriveException the heuristic outcome when an operator decided the branch;
     *         {@link DeriveException#UNDEFINED_OBJECT} when the host has no such branch
     */
    synchronized void decide(BranchId xid, boolean commit) {
        Optional<HeuristicOutcomes.Decision> decision = heuristics.decision(xid);
        if (decision.isPresent()) {
            throw decision.get().reported();
        }
        complete(xid, commit);
    }

    /** See {@link io.derive.engine.api.Database#resolveHeuristically}. */
    synchronized void resolveHeuristically(BranchId xid, boolean commit) {
        Optional<HeuristicOutcomes.Decision> recorded = heuristics.decision(xid);
        // A decision recorded but not carried out (the host failed) may be carried out again, as recorded.
        if (recorded.isPresent() && (!undecided.contains(xid) || recorded.get().committed() != commit)) {
            throw recorded.get().reported();
        }
        if (recorded.isEmpty()) {
            if (!undecided.contains(xid)) {
                throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "database '" + database
                        + "' has no in-doubt transaction " + xid + " that a process which ended left prepared");
            }
            heuristics.record(new HeuristicOutcomes.Decision(xid, commit, Instant.now(), touched(xid)));
            list();
        }
        complete(xid, commit);
        LOG.log(Level.WARNING, "database ''{0}'': in-doubt transaction {1} heuristically {2} by an operator", database, xid,
                commit ? "committed" : "rolled back");
    }

    /** See {@link io.derive.engine.api.Database#forgetHeuristic}. */
    synchronized void forget(BranchId xid) {
        heuristics.forget(xid);
        list();
    }

    /** The branches an operator decided and the transaction manager has not forgotten. */
    List<BranchId> decided() {
        return heuristics.all().stream().map(HeuristicOutcomes.Decision::xid).toList();
    }

    /** See {@link io.derive.engine.api.Database#inDoubtBranches()}. */
    List<InDoubtBranch> listing() {
        return listing;
    }

    private void complete(BranchId xid, boolean commit) {
        host.completeInDoubt(xid, commit);
        undecided.remove(xid);
        LOG.log(Level.INFO, "database ''{0}'': in-doubt transaction {1} {2}", database, xid, commit ? "committed" : "rolled back");
        try {
            if (changedCatalog.remove(xid)) {
                if (changedCatalog.isEmpty()) {
                    rehydrating = true;
                    catalogWaits = 0;
                    try {
                        services.unavailable("rehydrates now that the in-doubt transactions that changed its catalog are decided");
                        rehydrateNow();
                    } finally {
                        rehydrating = false;
                    }
                    services.unavailable(null);
                    LOG.log(Level.INFO, "opened Derive database ''{0}'' now that the in-doubt transactions that changed its "
                            + "catalog are decided", database);
                } else {
                    waitForCatalog();
                }
            } else if (waiting != null) {
                try (Session session = ownSession.get()) {
                    services.rehydrateReport(waiting.decided(xid, commit, session));
                }
                if (!waiting.waiting()) {
                    waiting = null;
                }
            }
        } finally {
            list();
        }
    }

    private List<String> touched(BranchId xid) {
        if (changedCatalog.contains(xid)) {
            return List.of(CATALOG);
        }
        return waiting == null ? List.of() : waiting.touchedBy(xid);
    }

    private void list() {
        List<InDoubtBranch> branches = new ArrayList<>();
        for (BranchId xid : undecided) {
            if (heuristics.decision(xid).isEmpty()) {
                branches.add(new InDoubtBranch(xid, InDoubtBranch.State.IN_DOUBT, touched(xid), null));
            }
        }
        for (HeuristicOutcomes.Decision d : heuristics.all()) {
            branches.add(new InDoubtBranch(d.xid(), d.committed() ? InDoubtBranch.State.HEURISTICALLY_COMMITTED
                    : InDoubtBranch.State.HEURISTICALLY_ROLLED_BACK, d.touched(), d.decidedAt()));
        }
        listing = List.copyOf(branches);
    }
}
