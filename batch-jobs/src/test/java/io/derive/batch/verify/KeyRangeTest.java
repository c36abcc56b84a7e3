package io.derive.batch.verify;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The predicate a range of {@code mv-verify} hands the engine: lexicographic over the key, bounded on its first column. */
class KeyRangeTest {

    @Test
    void theWholeKeySpaceHasNoPredicate() {
        assertThat(new KeyRange(null, null, 0).predicate(List.of("k"))).isNull();
    }

    @Test
    void aOneColumnKeyIsBoundedAfterTheLastKeyAndThroughThisOne() {
        KeyRange.Predicate p = new KeyRange(List.of(5L), List.of(9L), 4).predicate(List.of("k"));

        assertThat(p.sql()).isEqualTo("\"k\" > ? and \"k\" <= ?");
        assertThat(p.parameters()).containsExactly(5L, 9L);
    }

    @Test
    void aCompositeKeyComparesColumnByColumnAndBoundsItsFirstColumnForASeek() {
        KeyRange.Predicate p = new KeyRange(List.of(1L, "x"), null, 0).predicate(List.of("a", "b"));

        assertThat(p.sql()).isEqualTo("\"a\" >= ? and (\"a\" > ? or (\"a\" = ? and \"b\" > ?))");
        assertThat(p.parameters()).containsExactly(1L, 1L, 1L, "x");
    }

    @Test
    void aThreeColumnKeyNestsTheComparison() {
        KeyRange.Predicate p = new KeyRange(null, List.of(1L, 2L, 3L), 10).predicate(List.of("a", "b", "c"));

        assertThat(p.sql()).isEqualTo("\"a\" <= ? and (\"a\" < ? or (\"a\" = ? and (\"b\" < ? or (\"b\" = ? and \"c\" <= ?))))");
        assertThat(p.parameters()).containsExactly(1L, 1L, 1L, 2L, 2L, 3L);
    }

    @Test
    void aQuoteInAColumnNameIsDoubled() {
        assertThat(new KeyRange(List.of(1L), null, 0).predicate(List.of("we\"ird")).sql()).isEqualTo("\"we\"\"ird\" > ?");
    }
}
