package io.derive.derby;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When Derby's rows are exactly a snapshot's ({@link BeforeImages#settledFor}), and how a reader
 * learns that a write was announced while it read ({@link BeforeImages#writes}).
 */
class BeforeImagesTest {
    private static final byte[] KEY = {0x43, 0x01};
    private final BeforeImages images = new BeforeImages();

    @Test
    void aWriteNotYetCommittedUnsettlesEverySnapshot() {
        images.writing(KEY, null);

        assertThat(images.settledFor(Long.MAX_VALUE - 1)).isFalse();
    }

    @Test
    void aCommittedWriteUnsettlesOnlyTheSnapshotsBeforeIt() {
        images.writing(KEY, new Object[] {1L});
        images.committed(KEY, 5);

        assertThat(images.settledFor(4)).isFalse();
        assertThat(images.settledFor(5)).isTrue();
    }

    @Test
    void anAbandonedWriteLeavesDerbyAsItWasForSnapshotsAfterTheRollbackButIsCounted() {
        long before = images.writes();
        images.writing(KEY, null);
        images.abandoned(KEY, 4);

        assertThat(images.settledFor(5)).isTrue();
        assertThat(images.writes()).isGreaterThan(before);
    }

    @Test
    void aReaderThatSawAnAbandonedWriteInDerbyAndAsksAfterTheRollbackGetsTheCommittedValue() {
        Object[] committed = {1L};
        images.writing(KEY, committed);
        // a statement reading snapshot 4 reads Derby here and finds the write; then the writer rolls back
        images.abandoned(KEY, 4);

        assertThat(images.at(KEY, 4)).isSameAs(committed);
        assertThat(images.at(KEY, 5)).as("a statement that started after the rollback reads Derby")
                .isSameAs(BeforeImages.SETTLED);
    }

    @Test
    void anAbandonedWritesBeforeImageIsRetiredOnceNoSnapshotBeforeTheRollbackIsRead() {
        images.writing(KEY, new Object[] {1L});
        images.abandoned(KEY, 4);

        images.retire(KEY, 4);
        assertThat(images.isEmpty()).isFalse();
        images.retire(KEY, 5);
        assertThat(images.isEmpty()).isTrue();
    }

    @Test
    void aRewriteUnsettlesEverySnapshotUntilItEndsAndIsCountedAtBothEnds() {
        long before = images.writes();
        images.rewriting();
        assertThat(images.settledFor(1)).isFalse();
        long during = images.writes();
        images.rewritten();

        assertThat(images.settledFor(1)).isTrue();
        assertThat(during).isGreaterThan(before);
        assertThat(images.writes()).isGreaterThan(during);
    }
}
