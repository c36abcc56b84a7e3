package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code verify materialized view … where <key range>} reads the range, not the view: the range
 * is a key seek of the backing and, pushed into the body, of the body's source, so a batch job
 * that verifies a large view range by range reads each row about once.
 */
class VerifyRangeSeekTest {
    private static final int ROWS = 10_000;

    private final RecordingMemoryModule module = new RecordingMemoryModule();
    private Database db;
    private Session s;

    @BeforeEach
    void open() {
        db = Derive.open(DatabaseConfig.named("verify-range-seek").withModule(module));
        s = db.openSession();
        s.execute("create table src (k integer primary key, g integer not null, v integer not null)");
        s.execute("insert into src select value, value % 100, value from generate_series(1, " + ROWS + ")");
        s.execute("create materialized view proj as select k, v * 2 as w from src where v > 0");
        s.execute("create materialized view per_g as select g, count(*) as n, sum(v) as total from src group by g");
        module.countReads("src");
    }

    @AfterEach
    void close() {
        s.close();
        db.close();
    }

    @Test
    void aKeyRangeOfAProjectionReadsThatRangeOfTheSource() {
        assertThat(s.execute("verify materialized view proj where k > ? and k <= ?", 5000, 5100).rows()).isEmpty();

        assertThat(module.takeRowsRead("src")).isEqualTo(100);
    }

    @Test
    void aRangeOfGroupKeysReadsTheSourceOnceAndNoMore() {
        assertThat(s.execute("verify materialized view per_g where g >= 10 and g < 20").rows()).isEmpty();

        assertThat(module.takeRowsRead("src")).as("no index on g: one scan, not one per group").isEqualTo(ROWS);
    }
}
