package io.derive.engine.mv;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.StatementKind;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.exec.query.VerifyReports;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.schema.CanonicalDdl;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.spi.MaintenanceOp;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.ValueOrder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code verify materialized view} finds: the keys where a view's backing and a fresh
 * evaluation of its body disagree. Both are read in the statement's one snapshot, which holds
 * every source and the view at the same commit, so writers running meanwhile cause no false
 * drift and need not wait: what differs was written behind the engine's back (or by a bug).
 */
final class DriftAudit {
    static final String MISSING = "missing";
    static final String EXTRA = "extra";
    static final String DIFFERS = "differs";

    /**
     * One drifted key.
     *
     * @param kind     {@link #MISSING} (the body has the key, the view not), {@link #EXTRA} (the
     *                 view has it, the body not) or {@link #DIFFERS} (both, with other values)
     * @param key      the backing key
     * @param stored   the view's row, null when missing
     * @param expected the body's row as the backing stores it, null when extra
     */
    record Drift(String kind, Object[] key, Object[] stored, Object[] expected) {

        /** The backing op that makes the key what the body says. */
        MaintenanceOp repair() {
            return expected == null ? new MaintenanceOp.DeleteKey(key) : new MaintenanceOp.Upsert(expected);
        }
    }

    private DriftAudit() {
    }

    /** What {@code verify materialized view} answers: one row per drifted key, the count of them. */
    static Result result(List<Drift> drift) {
        List<String> columns = List.of("drift", "key", "stored", "expected");
        List<Row> rows = new ArrayList<>();
        for (Drift d : drift) {
            rows.add(new Row(columns, new Object[] {d.kind(), tuple(d.key()), tuple(d.stored()), tuple(d.expected())}));
        }
        return new Result(StatementKind.VERIFY, columns, rows, rows.size());
    }

    /** What {@code verify_report()} keeps of this verification of {@code mv}. */
    static VerifyReports.Report report(TableSchema mv, List<Drift> drift, boolean repair, String keyRange) {
        long missing = 0;
        long extra = 0;
        List<String> sample = new ArrayList<>();
        for (Drift d : drift) {
            missing += d.kind().equals(MISSING) ? 1 : 0;
            extra += d.kind().equals(EXTRA) ? 1 : 0;
            if (sample.size() < VerifyReports.SAMPLE) {
                sample.add(d.kind() + " " + tuple(d.key()));
            }
        }
        return new VerifyReports.Report(mv.schema(), mv.name(), Instant.now(), missing, extra, drift.size() - missing - extra,
                repair && !drift.isEmpty(), String.join("; ", sample), keyRange);
    }

    /** Values as an SQL row literal, {@code (1, 'a', null)}; null for no row. */
    static String tuple(Object[] values) {
        if (values == null) {
            return null;
        }
        List<String> literals = new ArrayList<>();
        for (Object value : values) {
            literals.add(CanonicalDdl.literal(value));
        }
        return "(" + String.join(", ", literals) + ")";
    }

    /**
     * The drifted keys of {@code mv} among {@code keys}, in key order; {@code body} is its body's
     * plan (rows outside {@code keys} it gives are passed over).
     */
    static List<Drift> find(ExecutionContext context, TableSchema mv, PlanNode body, AuditedKeys keys) {
        TableShape shape = mv.storage().shape();
        TreeMap<Object[], Object[]> expected = new TreeMap<>(shape.keyOrder());
        for (Object[] row : context.queries().readAll(body)) {
            Object[] stored = MaterializedViews.stored(mv, row);
            if (keys.inRange().test(stored) && expected.put(shape.keyOf(stored), stored) != null) {
                throw new DeriveException(DeriveException.CONSTRAINT, "materialized view '" + mv.qualifiedName()
                        + "' must be a set: its body produced duplicate rows for primary key "
                        + MaterializedViews.keyText(mv, stored));
            }
        }
        mv.derivation().statistics().bodyEvaluated();
        List<Drift> drift = new ArrayList<>();
        Iterator<Map.Entry<Object[], Object[]>> wanted = expected.entrySet().iterator();
        Map.Entry<Object[], Object[]> next = wanted.hasNext() ? wanted.next() : null;
        try (RowCursor stored = context.queries().open(keys.stored())) {
            while (stored.hasNext()) {
                Object[] row = stored.next();
                Object[] key = shape.keyOf(row);
                while (next != null && shape.keyOrder().compare(next.getKey(), key) < 0) {
                    drift.add(new Drift(MISSING, next.getKey(), null, next.getValue()));
                    next = wanted.hasNext() ? wanted.next() : null;
                }
                if (next != null && shape.keyOrder().compare(next.getKey(), key) == 0) {
                    if (!ValueOrder.identicalRows(row, next.getValue())) {
                        drift.add(new Drift(DIFFERS, key, row, next.getValue()));
                    }
                    next = wanted.hasNext() ? wanted.next() : null;
                } else {
                    drift.add(new Drift(EXTRA, key, row, null));
                }
            }
        }
        while (next != null) {
            drift.add(new Drift(MISSING, next.getKey(), null, next.getValue()));
            next = wanted.hasNext() ? wanted.next() : null;
        }
        return drift;
    }
}
