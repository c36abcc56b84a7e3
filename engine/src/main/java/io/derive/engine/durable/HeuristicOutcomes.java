package io.derive.engine.durable;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operators' decisions of in-doubt branches (heuristic outcomes), kept in a table of the
 * durable host ({@code heuristic}: xid, outcome, when, what the branch wrote) until the
 * transaction manager forgets them: XA requires a resource manager to remember a heuristic
 * completion, and to report it to every later commit or rollback of the branch, until then.
 * A decision is recorded before the branch is completed on the host, so that a crash between
 * the two leaves a decision the next open finishes, never a completion nobody can report.
 */
public final class HeuristicOutcomes {
    private static final String COMMITTED = "committed";
    private static final String ROLLED_BACK = "rolled back";
    private static final TableShape SHAPE = new TableShape("derive", "heuristic", List.of(
            text("xid", true), text("outcome", true), text("decided_at", true), text("touched", false)),
            List.of(new TableShape.KeyPart(0, false)));

    /**
     * An operator's decision.
     *
     * @param committed whether the branch was committed (else rolled back)
     * @param touched   what the branch wrote, as {@link io.derive.engine.api.InDoubtBranch#touched()} names it
     */
    public record Decision(BranchId xid, boolean committed, Instant decidedAt, List<String> touched) {
        public Decision {
            touched = List.copyOf(touched);
        }

        /**
         * What the transaction manager's later commit or rollback of the branch fails with:
         * {@link DeriveException#HEURISTICALLY_COMMITTED} or {@link DeriveException#HEURISTICALLY_ROLLED_BACK}.
         */
        public DeriveException reported() {
            return new DeriveException(committed ? DeriveException.HEURISTICALLY_COMMITTED : DeriveException.HEURISTICALLY_ROLLED_BACK,
                    "in-doubt transaction " + xid + " was heuristically " + (committed ? COMMITTED : ROLLED_BACK)
                            + " by an operator at " + decidedAt + "; forget it once its outcome is recorded");
        }

        private Object[] row() {
            return new Object[]{xid.toString(), committed ? COMMITTED : ROLLED_BACK, decidedAt.toString(), String.join(", ", touched)};
        }

        private static Decision of(Object[] row) {
            String touched = (String) row[3];
            return new Decision(BranchId.parse((String) row[0]), COMMITTED.equals(row[1]), Instant.parse((String) row[2]),
                    touched == null || touched.isEmpty() ? List.of() : Arrays.asList(touched.split(", ")));
        }
    }

    private final HostedTable table;
    private final Map<BranchId, Decision> decisions = new LinkedHashMap<>();

    private HeuristicOutcomes(HostedTable table) {
        this.table = table;
    }

    /**
     * The decisions recorded in {@code host}, whose table is created when absent.
     *
     * @throws DeriveException when the host keeps nothing across opens
     */
    public static HeuristicOutcomes open(TableModule host) {
        HostedTable table = host.systemTable(SHAPE.name(), SHAPE).orElseThrow(() -> new DeriveException(
                DeriveException.FEATURE_NOT_SUPPORTED, "table module '" + host.name() + "' cannot keep heuristic outcomes"));
        HeuristicOutcomes outcomes = new HeuristicOutcomes(table);
        SystemTableRows.read(table, row -> {
            Decision d = Decision.of(row);
            outcomes.decisions.put(d.xid(), d);
        });
        return outcomes;
    }

    public synchronized Optional<Decision> decision(BranchId xid) {
        return Optional.ofNullable(decisions.get(xid));
    }

    /** Every decision not forgotten. */
    public synchronized List<Decision> all() {
        return new ArrayList<>(decisions.values());
    }

    /** Records {@code decision}, durably when this returns. */
    public synchronized void record(Decision decision) {
        SystemTableRows.write(table, c -> c.put(decision.row()));
        decisions.put(decision.xid(), decision);
    }

    /**
     * Forgets the decision of {@code xid}, durably when this returns.
     *
     * @throws DeriveException {@link DeriveException#UNDEFINED_OBJECT} when none is recorded
     */
    public synchronized void forget(BranchId xid) {
        if (!decisions.containsKey(xid)) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no heuristic outcome of transaction " + xid
                    + " is recorded");
        }
        SystemTableRows.write(table, c -> c.delete(new Object[]{xid.toString()}));
        decisions.remove(xid);
    }

    private static TableShape.Column text(String name, boolean notNull) {
        return new TableShape.Column(name, SqlType.TEXT, Collation.BINARY, notNull);
    }
}
