package io.derive.memory;

import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.PersistentTree;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which committed states of a table pruning keeps: those some open snapshot reads. */
class MemoryTableVersionsTest {
    private static final MemoryTable.Committed STATE =
            new MemoryTable.Committed(PersistentTree.empty(new KeyOrder(List.of(), List.of())), Map.of());

    @Test
    void pruningKeepsTheNewestStateAtOrBeforeEachSnapshotAndEveryStateAfterTheLatest() {
        MemoryTable.Version chain = chain(1, 2, 3, 5, 8, 9, 10);

        MemoryTable.Version pruned = MemoryTable.readable(chain, new long[] {2, 6, 8});

        assertThat(sequences(pruned)).containsExactly(10L, 9L, 8L, 5L, 2L);
    }

    @Test
    void statesBetweenTwoSnapshotsGoThoughTheyAreNewerThanTheOldest() {
        MemoryTable.Version chain = chain(1, 2, 3, 4, 5, 6, 7);

        MemoryTable.Version pruned = MemoryTable.readable(chain, new long[] {1, 7});

        assertThat(sequences(pruned)).containsExactly(7L, 1L);
    }

    @Test
    void aChainWhoseEveryStateIsReadIsKeptAsItIs() {
        MemoryTable.Version chain = chain(3, 4, 5);

        assertThat(MemoryTable.readable(chain, new long[] {3, 4})).isSameAs(chain);
    }

    /** A chain of states committed under {@code sequences}, ascending; the last is its head. */
    private static MemoryTable.Version chain(long... sequences) {
        MemoryTable.Version v = null;
        for (long s : sequences) {
            v = new MemoryTable.Version(s, STATE, v);
        }
        return v;
    }

    private static List<Long> sequences(MemoryTable.Version v) {
        List<Long> out = new ArrayList<>();
        for (; v != null; v = v.older()) {
            out.add(v.sequence());
        }
        return out;
    }
}
