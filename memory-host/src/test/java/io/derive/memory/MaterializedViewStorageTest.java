package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Session;
import io.derive.engine.spi.HostedTable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** An MV is materialized: its rows live in a backing table of the host, and reads do not run its body. */
class MaterializedViewStorageTest {

    @Test
    void theBackingHoldsTheRowsAndReadsDoNotEvaluateTheBody() {
        WatchedMemoryModule module = new WatchedMemoryModule();
        try (Database db = Derive.open(DatabaseConfig.named("storage").withModule(module));
             Session s = db.openSession()) {
            s.execute("create table t (k integer primary key, v integer)");
            s.execute("create materialized view big as select k, v from t where v > 10");
            for (long k = 1; k <= 50; k++) {
                s.execute("insert into t values (?, ?)", k, k);
            }
            HostedTable backing = module.created("big");
            assertThat(backing.committedRowCount()).isEqualTo(40);
            assertThat(s.execute("select * from big").rows()).hasSize(40);
            assertThat(s.execute("select body_evaluations from materialized_views()").rows().get(0).get(0))
                    .isEqualTo(1L);
        }
    }
}
