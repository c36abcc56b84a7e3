package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dropped memory table's rows go with it: the texts a session ran, parsed and planned against
 * the schema of their time, do not hold on to the table once the session runs another statement.
 * (The lock table keeps the locks of the table's rows, naming the table, until later releases
 * forget them — a release forgets idle locks beyond its own ({@code LockTable}) — so the test
 * writes on before it looks.)
 */
class DroppedTableReleaseTest {

    @Test
    void aDroppedTableIsNotKeptByTheTextsASessionRanBeforeTheDrop() throws InterruptedException {
        WatchedMemoryModule module = new WatchedMemoryModule();
        try (Database db = Derive.open(DatabaseConfig.named("dropped-table-release").withModule(module));
             Session reader = db.openSession();
             Session dropper = db.openSession()) {
            dropper.execute("create table big (k integer primary key, v text)");
            dropper.execute("insert into big select value, 'row ' || value from generate_series(1, 1000)");
            assertThat(reader.execute("select count(*) from big").rows()).hasSize(1);
            assertThat(reader.execute("select v from big where k = ?", 7).rows()).hasSize(1);

            dropper.execute("create table other (k integer primary key)");
            dropper.execute("drop table big");
            reader.execute("select 1");
            for (int i = 0; i < 2000; i++) {
                dropper.execute("insert into other values (?)", i);
            }

            for (int i = 0; i < 50 && module.created("big") != null; i++) {
                System.gc();
                Thread.sleep(20);
            }
            assertThat(module.created("big")).as("the dropped table, after collections").isNull();
        }
    }
}
