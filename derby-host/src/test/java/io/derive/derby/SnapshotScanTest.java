package io.derive.derby;

import io.derive.engine.spi.RowCursor;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scan as of a snapshot over rows Derby hands out without locks: each key once, in order, with
 * the values the snapshot holds.
 */
class SnapshotScanTest {
    private static final KeyCodec.Bounds ALL = new KeyCodec.Bounds(null, false, null, false);
    private static final long SNAPSHOT = 10;

    private final BeforeImages images = new BeforeImages();

    @Test
    void aRowDerbyHandsOutTwiceWhileAWriterChangesItIsReadOnce() {
        assertThat(scan(stored("a", "b", "b", "c"))).containsExactly("a", "b", "c");
    }

    @Test
    void aRowInsertedAfterTheSnapshotIsLeftOut() {
        images.writing(key("b"), null);
        images.committed(key("b"), SNAPSHOT + 1);
        assertThat(scan(stored("a", "b", "c"))).containsExactly("a", "c");
    }

    @Test
    void aRowDeletedByAnUncommittedWriteIsReadFromItsBeforeImage() {
        images.writing(key("b"), row("b"));
        assertThat(scan(stored("a", "c"))).containsExactly("a", "b", "c");
    }

    @Test
    void aRowUpdatedAfterTheSnapshotIsReadAsItWas() {
        images.writing(key("b"), row("old b"));
        images.committed(key("b"), SNAPSHOT + 1);
        assertThat(scan(stored("a", "b"))).containsExactly("a", "old b");
    }

    @Test
    void aWriteCommittedAtOrBeforeTheSnapshotIsReadFromDerby() {
        images.writing(key("b"), row("old b"));
        images.committed(key("b"), SNAPSHOT);
        assertThat(scan(stored("a", "b"))).containsExactly("a", "b");
    }

    @Test
    void theOldestHiddenWriteGivesTheSnapshotsValue() {
        images.writing(key("b"), row("b at 10"));
        images.committed(key("b"), SNAPSHOT + 1);
        images.writing(key("b"), row("b at 11"));
        assertThat(scan(stored("b"))).containsExactly("b at 10");
    }

    private List<Object> scan(SnapshotScan.Store store) {
        List<Object> values = new ArrayList<>();
        try (RowCursor rows = new SnapshotScan(store, images, SNAPSHOT, ALL, SnapshotScan.TABLE_ROWS, key -> false,
                Collections.emptyIterator())) {
            rows.forEachRemaining(r -> values.add(r[0]));
        }
        return values;
    }

    /** Rows Derby hands out, in this order, each keyed by {@link #key}. */
    private static SnapshotScan.Store stored(String... values) {
        ArrayDeque<SnapshotScan.Keyed> rows = new ArrayDeque<>();
        for (String v : values) {
            rows.add(new SnapshotScan.Keyed(key(v), row(v), key(v)));
        }
        return new SnapshotScan.Store() {
            @Override
            public SnapshotScan.Keyed next() {
                return rows.poll();
            }

            @Override
            public void close() {
            }
        };
    }

    /** A row's key: the first letter of the word naming it ({@code "old b"} and {@code "b at 10"} are rows of key b). */
    private static byte[] key(String value) {
        String name = value.startsWith("old ") ? value.substring(4) : value;
        return new byte[] {(byte) name.charAt(0)};
    }

    private static Object[] row(String value) {
        return new Object[] {value};
    }
}
