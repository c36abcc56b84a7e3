package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import io.derive.engine.contract.ReadCountingConnection;
import io.derive.engine.spi.BackingHost;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableModule;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 1:1 join arm's lookup-table writes on the Derby host (semantics §4.3): the driving rows
 * that reference the changed lookup key are found by a seek of the index the view creates on the
 * driving table (a Derby index table), never a scan — counted by the rows the driving table's
 * connections hand out (the memory host's twin is {@code MaterializedViewJoinSeekTest}).
 */
class DerbyJoinSeekTest {
    private static final int DRIVING_ROWS = 2_000;
    /** 2 driving rows reference the key, each read a few times; a scan would read all {@link #DRIVING_ROWS}. */
    private static final long SEEK_READS = 2 * 4;
    private static final String BODY = "select d.k, d.x, p.name from d join p on d.pid = p.id";

    private final AtomicLong drivingReads = new AtomicLong();
    private Database db;
    private Session s;

    @BeforeEach
    void open() {
        db = Derive.open(DatabaseConfig.named("derby-join-seek").withDefaultHost("derby")
                .withModule(new CountingModule(new DerbyTableModule(), "d", drivingReads)));
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
    void aLookupWriteSeeksTheIndexTheViewCreated() {
        s.execute("create materialized view mv as " + BODY);
        assertThat(rows("select name from schema() where type = 'index'")).containsExactly(List.of("derive_mv_mv_1"));
        drivingReads.set(0);
        s.execute("update p set name = 'renamed' where id = 7");
        assertThat(drivingReads.get()).isBetween(2L, SEEK_READS);
        assertThat(rows("select * from mv")).containsExactlyInAnyOrderElementsOf(rows(BODY));
        assertThat(rows("select count(*) from mv where name = 'renamed'")).containsExactly(List.of(2L));
    }

    @Test
    void theCounterSeesAScan() {
        drivingReads.set(0);
        assertThat(rows("select count(*) from d where x > 0")).containsExactly(List.of((long) DRIVING_ROWS));
        assertThat(drivingReads.get()).isGreaterThanOrEqualTo(DRIVING_ROWS);
    }

    private List<List<Object>> rows(String query) {
        List<List<Object>> out = new ArrayList<>();
        for (Row r : s.execute(query).rows()) {
            out.add(r.values());
        }
        return out;
    }

    /** The Derby module, counting the rows read through connections to one table (the others are the module's own). */
    private record CountingModule(DerbyTableModule derby, String counted, AtomicLong reads) implements TableModule {
        @Override
        public String name() {
            return derby.name();
        }

        @Override
        public void start(String databaseName) {
            derby.start(databaseName);
        }

        @Override
        public HostedTable create(TableShape shape, List<String> args) {
            HostedTable table = derby.create(shape, args);
            return shape.name().equals(counted) ? new CountedTable(table, reads) : table;
        }

        @Override
        public Optional<Collation> keyCollation(List<String> args) {
            return derby.keyCollation(args);
        }

        @Override
        public void sweep() {
            derby.sweep();
        }

        @Override
        public void close() {
            derby.close();
        }
    }

    private record CountedTable(HostedTable table, AtomicLong reads) implements HostedTable {
        @Override
        public TableShape shape() {
            return table.shape();
        }

        @Override
        public TableConnection connect(HostSession session) {
            return new ReadCountingConnection(table.connect(session), reads);
        }

        @Override
        public long committedRowCount() {
            return table.committedRowCount();
        }

        @Override
        public Optional<BackingHost> backingHost() {
            return table.backingHost();
        }

        @Override
        public void createIndex(IndexShape index) {
            table.createIndex(index);
        }

        @Override
        public void dropIndex(String name) {
            table.dropIndex(name);
        }

        @Override
        public void drop() {
            table.drop();
        }
    }
}
