package io.derive.cli.slt;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TriggerExclusionTest {
    private final TriggerExclusion exclusion = new TriggerExclusion();

    @Test
    void triggerAndReindexStatementsAreSkipped() {
        assertThat(exclusion.skips("CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1; END;")).isTrue();
        assertThat(exclusion.skips("create temp trigger r before insert on t2 begin select 1; end")).isTrue();
        assertThat(exclusion.skips("DROP TRIGGER t1r1")).isTrue();
        assertThat(exclusion.skips("REINDEX t1i1")).isTrue();
        assertThat(exclusion.skips("SELECT * FROM t1")).isFalse();
    }

    @Test
    void writesToATableWithASkippedTriggerAreSkippedUntilItIsDropped() {
        exclusion.skips("CREATE TRIGGER r AFTER INSERT ON t1 BEGIN SELECT 1; END");

        assertThat(exclusion.skips("INSERT INTO t1 VALUES(1)")).isTrue();
        assertThat(exclusion.skips("update t1 set x = 2")).isTrue();
        assertThat(exclusion.skips("DELETE FROM t1")).isTrue();
        assertThat(exclusion.skips("INSERT INTO t2 VALUES(1)")).isFalse();
        assertThat(exclusion.skips("SELECT x FROM t1")).isFalse();
        assertThat(exclusion.skips("DROP TABLE t1")).isFalse();
        assertThat(exclusion.skips("INSERT INTO t1 VALUES(1)")).isFalse();
    }
}
