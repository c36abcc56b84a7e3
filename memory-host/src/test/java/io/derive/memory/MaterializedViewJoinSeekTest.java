package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 1:1 join arm's lookup-table writes (semantics §4.3): the driving rows that reference the
 * changed lookup key are found by an index seek, never a scan — the driving table's rows read
 * for one lookup write are those that reference the key (plus the slices they recompute), not the
 * table's, whether the index is the user's or the one the view creates for itself.
 */
class MaterializedViewJoinSeekTest {
    private static final int DRIVING_ROWS = 3_000;
    private static final String BODY = "select d.k, d.x, p.name from d join p on d.pid = p.id";
    /**
     * A lookup key is referenced by 3 driving rows; each is read a few times (by the seek, by its
     * slice's recompute, by the write's own checks). A scan would read all {@link #DRIVING_ROWS}.
     */
    private static final long SEEK_READS = 3 * 4;

    private final RecordingMemoryModule module = new RecordingMemoryModule();
    private Database db;
    private Session s;

    @BeforeEach
    void open() {
        module.countReads("d");
        db = Derive.open(DatabaseConfig.named("join-seek").withModule(module));
        s = db.openSession();
        s.execute("create table p (id integer primary key, name text)");
        s.execute("create table d (k integer primary key, pid integer not null references p(id), x integer)");
        s.execute("insert into p select value, 'p' || value from generate_series(1, 1000)");
        s.execute("insert into d select value, value % 1000 + 1, value from generate_series(1, ?)", DRIVING_ROWS);
    }

    @AfterEach
    void close() {
        s.close();
        db.close();
    }

    @Test
    void withoutAnIndexTheViewCreatesOneAndALookupWriteSeeks() {
        s.execute("create materialized view mv as " + BODY);
        assertThat(rows("select name, sql from schema() where type = 'index'"))
                .containsExactly(List.of("derive_mv_mv_1", "create index derive_mv_mv_1 on main.d (pid)"));
        assertThat(lookupWriteReads()).isLessThanOrEqualTo(SEEK_READS);
    }

    @Test
    void aUserIndexLeadingWithTheColumnsServesAndNoneIsCreated() {
        s.execute("create index d_pid_x on d (pid, x)");
        s.execute("create materialized view mv as " + BODY);
        assertThat(rows("select name from schema() where type = 'index'")).containsExactly(List.of("d_pid_x"));
        assertThat(lookupWriteReads()).isLessThanOrEqualTo(SEEK_READS);
    }

    @Test
    void droppingTheUserIndexLeavesTheViewSeekingByItsOwn() {
        s.execute("create index d_pid_x on d (pid, x)");
        s.execute("create materialized view mv as " + BODY);
        s.execute("drop index d_pid_x");
        assertThat(rows("select name from schema() where type = 'index'")).containsExactly(List.of("derive_mv_mv_1"));
        assertThat(lookupWriteReads()).isLessThanOrEqualTo(SEEK_READS);
    }

    @Test
    void droppingTheViewDropsItsIndex() {
        s.execute("create materialized view mv as " + BODY);
        s.execute("drop materialized view mv");
        assertThat(rows("select name from schema() where type = 'index'")).isEmpty();
    }

    /** The driving rows read by a rename of one lookup row, the MV checked equal to its body after it. */
    private long lookupWriteReads() {
        module.takeRowsRead("d");
        s.execute("update p set name = 'renamed' where id = 7");
        long read = module.takeRowsRead("d");
        assertThat(rows("select * from mv")).containsExactlyInAnyOrderElementsOf(rows(BODY));
        assertThat(rows("select count(*) from mv where name = 'renamed'")).containsExactly(List.of(3L));
        return read;
    }

    private List<List<Object>> rows(String query) {
        List<List<Object>> out = new ArrayList<>();
        for (Row r : s.execute(query).rows()) {
            out.add(r.values());
        }
        return out;
    }
}
