package io.derive.engine.plan;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntUnaryOperator;

/** Which input slots an expression reads, and the same expression over a rearranged row. */
public final class Slots {
    private Slots() {
    }

    /** The slots of the evaluated row the expression reads (subquery plans excluded). */
    static BitSet read(BoundExpr e) {
        BitSet slots = new BitSet();
        collect(e, slots);
        return slots;
    }

    private static void collect(BoundExpr e, BitSet slots) {
        if (e instanceof BoundExpr.ColumnSlot s) {
            slots.set(s.index());
        } else if (e instanceof BoundExpr.Call c) {
            c.arguments().forEach(a -> collect(a, slots));
        } else if (e instanceof BoundExpr.Subquery q && q.operand() != null) {
            collect(q.operand(), slots);
        }
    }

    /**
     * Whether the expression may be evaluated over a different row layout once remapped: it is
     * deterministic and holds no subquery that could read the evaluated row as its enclosing row.
     */
    static boolean movable(BoundExpr e) {
        if (!e.deterministic()) {
            return false;
        }
        if (e instanceof BoundExpr.Subquery q) {
            return !PlanAnalysis.readsOuterRows(q.plan()) && (q.operand() == null || movable(q.operand()));
        }
        if (e instanceof BoundExpr.Call c) {
            return c.arguments().stream().allMatch(Slots::movable);
        }
        return true;
    }

    /** The expression reading slot {@code mapping(i)} wherever it read slot {@code i}. */
    static BoundExpr remap(BoundExpr e, IntUnaryOperator mapping) {
        if (e instanceof BoundExpr.ColumnSlot s) {
            return new BoundExpr.ColumnSlot(mapping.applyAsInt(s.index()), s.name(), s.type(), s.collation(), s.notNull());
        }
        if (e instanceof BoundExpr.Call c) {
            List<BoundExpr> args = new ArrayList<>();
            for (BoundExpr a : c.arguments()) {
                args.add(remap(a, mapping));
            }
            return new BoundExpr.Call(c.operator(), c.function(), args, c.type(), c.collation(), c.deterministic());
        }
        if (e instanceof BoundExpr.Subquery q && q.operand() != null) {
            return new BoundExpr.Subquery(q.kind(), q.plan(), remap(q.operand(), mapping), q.type(), q.collation(),
                    q.deterministic());
        }
        return e;
    }
}
