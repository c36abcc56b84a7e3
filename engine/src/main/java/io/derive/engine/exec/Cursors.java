package io.derive.engine.exec;

import io.derive.engine.spi.RowCursor;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

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

    /** Maps input rows one by one; a transform returning null drops the row. */
    abstract static class Transforming implements RowCursor {
        private final RowCursor input;
        private Object[] next;

        Transforming(RowCursor input) {
            this.input = input;
        }

        protected abstract Object[] transform(Object[] row);

        @Override
        public boolean hasNext() {
            while (next == null && input.hasNext()) {
                next = transform(input.next());
            }
            return next != null;
        }

        @Override
        public Object[] next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Object[] row = next;
            next = null;
            return row;
        }

        @Override
        public void close() {
            input.close();
        }
    }
}
