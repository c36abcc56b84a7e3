package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The host's side of a covering MV's conflict check (semantics §6): the probe is a key-prefix
 * seek, so the backing hands out the rows sharing the probed key, not its contents.
 */
class CoveringSeekTest {
    private static final int ROWS = 5000;

    private final RecordingMemoryModule module = new RecordingMemoryModule();
    private Database db;
    private Session s;

    @BeforeEach
    void open() {
        db = Derive.open(DatabaseConfig.named("covering-seek").withModule(module));
        s = db.openSession();
        s.execute("create table t (id integer primary key, a integer, unique (a))");
        s.execute("insert into t select value, value from generate_series(1, " + ROWS + ")");
        s.execute("create materialized view m as select a, id from t order by a");
        module.countBackingReads("m");
    }

    @AfterEach
    void close() {
        s.close();
        db.close();
    }

    @Test
    void aConflictCheckReadsOneBackingRowOfThousands() {
        assertThatThrownBy(() -> s.execute("insert into t values (" + (ROWS + 1) + ", 17)"))
                .hasMessageContaining("UNIQUE constraint failed: t.a");
        assertThat(module.takeBackingRowsRead("m")).isEqualTo(1);
        s.execute("insert into t values (" + (ROWS + 1) + ", -1)");
        assertThat(module.takeBackingRowsRead("m")).as("a value nobody holds").isZero();
    }

    @Test
    void aMultiRowReplaceReadsOnlyTheRowsItCollidesWith() {
        s.execute("insert or replace into t values (9001, 1), (9002, 2), (9003, 1)");
        assertThat(module.takeBackingRowsRead("m")).as("1, 2, then 9001's row for a = 1").isEqualTo(3);
        assertThat(s.execute("select id from m where a <= 2 order by a").rows()).extracting(r -> r.get(0))
                .containsExactly(9003L, 9002L);
    }
}
