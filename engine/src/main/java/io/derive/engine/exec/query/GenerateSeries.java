package io.derive.engine.exec.query;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Numeric;
import io.derive.engine.spi.LookaheadCursor;
import io.derive.engine.spi.RowCursor;

import java.util.List;

/** {@code generate_series(start, stop[, step])}, produced lazily so a {@code limit} bounds it. */
final class GenerateSeries {
    private GenerateSeries() {
    }

    static RowCursor cursor(List<Object> arguments) {
        if (arguments.get(0) == null || arguments.get(1) == null) {
            return Cursors.of(List.of());
        }
        long start = Numeric.of(arguments.get(0)).longValue();
        long stop = Numeric.of(arguments.get(1)).longValue();
        long step = arguments.size() > 2 && arguments.get(2) != null ? Numeric.of(arguments.get(2)).longValue() : 1;
        if (step == 0) {
            throw new DeriveException(DeriveException.DATA, "generate_series() step must not be 0");
        }
        return new LookaheadCursor() {
            private long next = start;
            private boolean done = step > 0 ? start > stop : start < stop;

            @Override
            protected Object[] advance() {
                if (done) {
                    return null;
                }
                long value = next;
                try {
                    next = Math.addExact(next, step);
                    done = step > 0 ? next > stop : next < stop;
                } catch (ArithmeticException overflow) {
                    done = true;
                }
                return new Object[] {value};
            }

            @Override
            public void close() {
                done = true;
            }
        };
    }
}
