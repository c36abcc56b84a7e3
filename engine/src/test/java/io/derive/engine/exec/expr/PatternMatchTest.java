package io.derive.engine.exec.expr;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code like} and {@code glob} take at most (text + 1) × (pattern + 1) steps, whatever the pattern. */
class PatternMatchTest {

    /** Many run wildcards before a character the text lacks: splitting the text among them every way is exponential. */
    @Test
    void manyWildcardsAgainstALongTextStayWithinTextTimesPattern() {
        for (int wildcards : new int[] {5, 20, 60}) {
            for (int length : new int[] {100, 1_000, 10_000}) {
                String text = "a".repeat(length);
                String like = "%a".repeat(wildcards) + "%b";
                String glob = like.replace('%', '*');
                PatternMatch.Outcome byLike = PatternMatch.likeOutcome(text, like, -1);
                PatternMatch.Outcome byGlob = PatternMatch.globOutcome(text, glob);
                long bound = (length + 1L) * (like.length() + 1L);
                assertThat(byLike.matched()).isFalse();
                assertThat(byGlob.matched()).isFalse();
                assertThat(byLike.steps()).as("like, %d wildcards, %d characters", wildcards, length).isLessThanOrEqualTo(bound);
                assertThat(byGlob.steps()).as("glob, %d wildcards, %d characters", wildcards, length).isLessThanOrEqualTo(bound);
            }
        }
    }

    /** The same with one-character wildcards and classes between the runs. */
    @Test
    void wildcardsAndClassesBetweenRunsStayWithinTextTimesPattern() {
        String text = "ab".repeat(2_000);
        String like = "%a_%a_%a_%a_%a_%a_%a_%c";
        String glob = "*a[b]*a?*a[^c]*a[a-b]*a[]b]*a?*c";
        PatternMatch.Outcome byLike = PatternMatch.likeOutcome(text, like, -1);
        PatternMatch.Outcome byGlob = PatternMatch.globOutcome(text, glob);
        assertThat(byLike.matched()).isFalse();
        assertThat(byGlob.matched()).isFalse();
        assertThat(byLike.steps()).isLessThanOrEqualTo((text.length() + 1L) * (like.length() + 1L));
        assertThat(byGlob.steps()).isLessThanOrEqualTo((text.length() + 1L) * (glob.length() + 1L));
    }
}
