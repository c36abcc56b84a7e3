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

    private void assertEqualsBody(String view, String body) {
        assertThat(rows("select * from " + view)).containsExactlyInAnyOrderElementsOf(rows(body));
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
    void twoViewColumnsOfOneSourceColumnThatAgreeWriteIt() {
        session.execute("create materialized view both_prices as select id, price, price + 10 as marked from items");
        session.execute("insert into both_prices values (4, 5, 15)");
        session.execute("insert into both_prices values (?, ?, ?)", 6, "7", 17);
        assertThat(rows("select price from items where id in (4, 6) order by id")).containsExactly(row(5L), row(7L));
        assertEqualsBody("both_prices", "select id, price, price + 10 from items");
    }

    @Test
    void twoViewColumnsOfOneSourceColumnThatDisagreeFailNamingItAndChangeNothing() {
        session.execute("create materialized view both_prices as select id, price, price + 10 as marked from items");
        assertThatThrownBy(() -> session.execute("insert into both_prices values (4, 5, 99)"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("materialized view 'main.both_prices' writes source column 'price' of 'main.items' through two"
                        + " of its columns, with 5 and 89: the values must agree at 1:1");
        assertThatThrownBy(() -> session.execute("update both_prices set price = 1, marked = 1 where id = 1"))
                .hasMessageContaining("with 1 and -9: the values must agree");
        assertThat(rows("select id, price from items order by id")).containsExactly(row(1L, 2L), row(2L, 5L), row(3L, 4L));
    }

    @Test
    void aComputedColumnIsNotWritable() {
        assertThatThrownBy(() -> session.execute("update office set doubled = 1"))
                .isInstanceOf(DeriveException.class).hasMessageContaining("non-invertible");
    }

    @Test
    void anInsertThroughAnAddedConstantStoresTheValueLessTheConstant() {
        session.execute("create materialized view marked as select id, price + 10 as marked from items");
        session.execute("insert into marked values (4, 25)");
        assertThat(rows("select price from items where id = 4")).containsExactly(row(15L));
        assertThat(rows("select marked from marked where id = 4")).containsExactly(row(25L));
        assertEqualsBody("marked", "select id, price + 10 from items");
    }

    @Test
    void aNegativeConstantIsInvertedLikeAnyOther() {
        session.execute("create materialized view discounted as select id, price + -1 as discounted from items");
        session.execute("insert into discounted values (4, 9)");
        assertThat(rows("select price from items where id = 4")).containsExactly(row(10L));
        assertEqualsBody("discounted", "select id, price + -1 from items");
    }

    @Test
    void anUpdateThroughAConstantLessTheColumnStoresTheConstantLessTheValue() {
        session.execute("create materialized view rest as select id, 100 - price as rest from items");
        session.execute("update rest set rest = rest + 1 where id = 1");
        assertThat(rows("select price from items where id = 1")).containsExactly(row(1L));
        assertThat(rows("select rest from rest where id = 1")).containsExactly(row(99L));
        assertEqualsBody("rest", "select id, 100 - price from items");
    }

    @Test
    void anUpdateThroughANegatedColumnStoresTheNegatedValue() {
        session.execute("create materialized view debits as select id, -price as debit from items");
        session.execute("update debits set debit = -7 where id = 2");
        assertThat(rows("select price from items where id = 2")).containsExactly(row(7L));
        assertEqualsBody("debits", "select id, -price from items");
    }

    @Test
    void aRealConstantOverARealColumnWritesThrough() {
        script("""
                create table readings (id integer primary key, celsius real);
                create materialized view kelvin as select id, celsius + 273.15 as kelvin from readings;
                insert into kelvin values (1, 373.15);
                """);
        assertThat(rows("select celsius from readings")).containsExactly(row(100.0));
        assertThat(rows("select kelvin from kelvin")).containsExactly(row(373.15));
        assertEqualsBody("kelvin", "select id, celsius + 273.15 from readings");
    }

    @Test
    void aRealConstantOverAnIntegerColumnTakesAValueItReachesExactly() {
        session.execute("create materialized view halves as select id, price + 0.5 as half from items");
        session.execute("update halves set half = 7.5 where id = 3");
        assertThat(rows("select price from items where id = 3")).containsExactly(row(7L));
        assertEqualsBody("halves", "select id, price + 0.5 from items");
    }

    @Test
    void aValueNoIntegerReachesThroughARealConstantFailsAndChangesNothing() {
        session.execute("create materialized view halves as select id, price + 0.5 as half from items");
        assertThatThrownBy(() -> session.execute("insert into halves values (4, 3.5), (5, 3)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("materialized view 'main.halves' column 'half': 3 cannot be written back exactly"
                        + " to integer column 'price' through price + 0.5");
        assertThat(rows("select count(*) from items")).containsExactly(row(3L));
        assertEqualsBody("halves", "select id, price + 0.5 from items");
    }

    @Test
    void aRealWhoseDigitsTheInverseLosesFails() {
        script("""
                create table readings (id integer primary key, celsius real);
                create materialized view kelvin as select id, celsius + 273.15 as kelvin from readings;
                """);
        assertThatThrownBy(() -> session.execute("insert into kelvin values (1, 0.1)"))
                .hasMessageContaining("0.1 cannot be written back exactly to real column 'celsius' through celsius + 273.15");
        assertThat(rows("select count(*) from readings")).containsExactly(row(0L));
    }

    @Test
    void anInverseThatOverflowsFailsAndChangesNothing() {
        session.execute("create materialized view lowered as select id, price - 10 as lowered from items");
        assertThatThrownBy(() -> session.execute("update lowered set lowered = 9223372036854775807 where id = 1"))
                .hasMessageContaining("column 'lowered': 9223372036854775807 cannot be written back exactly"
                        + " to integer column 'price' through price - 10");
        assertThat(rows("select price from items where id = 1")).containsExactly(row(2L));
        assertEqualsBody("lowered", "select id, price - 10 from items");
    }

    @Test
    void aNullWrittenThroughAnInvertibleColumnStoresNull() {
        session.execute("create materialized view marked as select id, price + 10 as marked from items");
        session.execute("update marked set marked = null where id = 1");
        assertThat(rows("select price from items where id = 1")).containsExactly(row((Object) null));
        assertEqualsBody("marked", "select id, price + 10 from items");
    }

    @Test
    void aSumOfTwoColumnsIsNotWritable() {
        session.execute("create materialized view totals as select id, price + id as total from items");
        assertThatThrownBy(() -> session.execute("update totals set total = 1"))
                .hasMessageContaining("column 'total' is computed (non-invertible)");
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
