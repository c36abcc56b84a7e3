package io.derive.engine.exec.query;

import io.derive.engine.spi.LookaheadCursor;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.txn.Cancellation;

import java.util.Iterator;
import java.util.List;

/** Small {@link RowCursor} building blocks for the operators. */
final class Cursors {
    private Cursors() {
    }

    static RowCursor of(List<Object[]> rows) {
        Iterator<Object[]> it = rows.iterator();
        return new RowCursor() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Object[] next() {
                return it.next();
            }

            @Override
            public void close() {
            }
        };
    }

    /** The rows of {@code input}, each read only while the transaction is not canceled. */
    static RowCursor cancelable(RowCursor input, Cancellation cancellation) {
        return new RowCursor() {
            @Override
            public boolean hasNext() {
                cancellation.check();
                return input.hasNext();
            }

            @Override
            public Object[] next() {
                return input.next();
            }

            @Override
            public void close() {
                input.close();
            }
        };
    }

    /** Maps input rows one by one; a transform returning null drops the row. */
    abstract static class Transforming extends LookaheadCursor {
        private final RowCursor input;

        Transforming(RowCursor input) {
            this.input = input;
        }

        protected abstract Object[] transform(Object[] row);

        @Override
        protected Object[] advance() {
            while (input.hasNext()) {
                Object[] row = transform(input.next());
                if (row != null) {
                    return row;
                }
            }
            return null;
        }

        @Override
        public void close() {
            input.close();
        }
    }
}
