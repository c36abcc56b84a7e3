package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** User DML naming a materialized view writes through to its source, or is refused saying why (semantics §4). */
public abstract class WriteThroughContract extends HostContractTest {

    @BeforeEach
    void schema() {
        script("""
                create table items (id integer primary key, name text, price integer, kind text);
                insert into items values (1, 'pen', 2, 'office'), (2, 'ink', 5, 'office'), (3, 'tea', 4, 'food');
                create materialized view office (item, label, price, doubled) as
                  select id, name, price, price * 2 from items where kind = 'office';
                """);
    }

    @Test
    void anInsertFillsInTheFiltersConstants() {
        session.execute("insert into office (item, label, price) values (4, 'clip', 1)");
        assertThat(rows("select kind from items where id = 4")).containsExactly(row("office"));
        assertThat(rows("select item, label, doubled from office where item = 4")).containsExactly(row(4L, "clip", 2L));
    }

    @Test
    void anUpdateReachesOnlyTheRowsInTheView() {
        session.execute("update office set price = price + 10");
        assertThat(rows("select id, price from items order by id")).containsExactly(row(1L, 12L), row(2L, 15L), row(3L, 4L));
    }

    @Test
    void aDeleteReachesOnlyTheRowsInTheView() {
        assertThat(session.execute("delete from office where label <> 'pen'").updateCount()).isEqualTo(1);
        assertThat(rows("select id from items order by id")).containsExactly(row(1L), row(3L));
    }

    @Test
    void aComputedColumnIsNotWritable() {
        assertThatThrownBy(() -> session.execute("update office set doubled = 1"))
                .isInstanceOf(DeriveException.class).hasMessageContaining("non-invertible");
    }

    @Test
    void anInsertContradictingTheFilterFails() {
        session.execute("create materialized view cheap as select id, name, price from items where price < 5");
        assertThatThrownBy(() -> session.execute("insert into cheap values (9, 'gold', 100)"))
                .hasMessageContaining("contradicts its selection predicate");
        assertThat(rows("select count(*) from items")).containsExactly(row(3L));
    }

    @Test
    void aViewThatIsNotAProjectionCannotBeWritten() {
        session.execute("create materialized view kinds as select kind, count(*) as n from items group by kind");
        assertThatThrownBy(() -> session.execute("delete from kinds"))
                .hasMessageContaining("cannot write through materialized view 'main.kinds'");
    }

    @Test
    void aViewOverAViewCannotBeWritten() {
        session.execute("create materialized view pens as select item, label from office where label = 'pen'");
        assertThatThrownBy(() -> session.execute("delete from pens"))
                .hasMessageContaining("reads a materialized view");
    }
}
