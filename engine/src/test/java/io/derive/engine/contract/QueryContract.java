package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Joins, grouping, subqueries, compound queries and common tables, on any host. */
public abstract class QueryContract extends HostContractTest {

    @BeforeEach
    void shop() {
        script("""
                create table customers (id integer primary key, name text not null, city text);
                create table orders (id integer primary key, customer integer, amount integer);
                insert into customers values (1, 'ann', 'oslo'), (2, 'bob', 'rome'), (3, 'cy', null);
                insert into orders values (10, 1, 5), (11, 1, 7), (12, 2, 3), (13, 9, 1);
                """);
    }

    @Test
    void innerJoinMatchesOnEquality() {
        assertThat(rows("select c.name, o.amount from customers c join orders o on o.customer = c.id order by o.id"))
                .containsExactly(row("ann", 5L), row("ann", 7L), row("bob", 3L));
    }

    @Test
    void leftJoinPadsUnmatchedRowsWithNulls() {
        assertThat(rows("select c.name, o.id from customers c left join orders o on o.customer = c.id order by c.id, o.id"))
                .containsExactly(row("ann", 10L), row("ann", 11L), row("bob", 12L), row("cy", null));
    }

    @Test
    void rightJoinKeepsEveryRightRowInWrittenColumnOrder() {
        assertThat(rows("select c.name, o.id from customers c right join orders o on o.customer = c.id order by o.id"))
                .containsExactly(row("ann", 10L), row("ann", 11L), row("bob", 12L), row(null, 13L));
    }

    @Test
    void fullJoinKeepsUnmatchedRowsOfBothSides() {
        assertThat(rows("select c.id, o.id from customers c full join orders o on o.customer = c.id"))
                .containsExactlyInAnyOrder(row(1L, 10L), row(1L, 11L), row(2L, 12L), row(3L, null), row(null, 13L));
    }

    @Test
    void commaJoinWithWhereIsAnInnerJoin() {
        assertThat(rows("select count(*) from customers c, orders o where o.customer = c.id")).containsExactly(row(3L));
    }

    @Test
    void usingMergesTheJoinColumn() {
        script("""
                create table a (k integer primary key, x text);
                create table b (k integer primary key, y text);
                insert into a values (1, 'a1'), (2, 'a2');
                insert into b values (2, 'b2'), (3, 'b3');
                """);
        assertThat(rows("select * from a join b using (k)")).containsExactly(row(2L, "a2", "b2"));
        assertThat(rows("select k, x, y from a natural join b")).containsExactly(row(2L, "a2", "b2"));
    }

    @Test
    void anAmbiguousColumnIsNamed() {
        assertThatThrownBy(() -> session.execute("select id from customers join orders on 1 = 1"))
                .isInstanceOf(DeriveException.class).hasMessageContaining("ambiguous column name: id");
    }

    @Test
    void groupByWithHavingAndEveryAggregate() {
        assertThat(rows("""
                select customer, count(*), sum(amount), total(amount), avg(amount), min(amount), max(amount),
                       group_concat(amount, '+')
                from orders group by customer having count(*) >= 1 order by customer"""))
                .containsExactly(
                        row(1L, 2L, 12L, 12.0, 6.0, 5L, 7L, "5+7"),
                        row(2L, 1L, 3L, 3.0, 3.0, 3L, 3L, "3"),
                        row(9L, 1L, 1L, 1.0, 1.0, 1L, 1L, "1"));
    }

    @Test
    void anAggregateOverNoRowsGivesOneRow() {
        assertThat(rows("select count(*), sum(amount), total(amount), max(amount) from orders where amount > 100"))
                .containsExactly(row(0L, null, 0.0, null));
    }

    @Test
    void countDistinctCountsValuesOnce() {
        assertThat(rows("select count(distinct customer), count(customer) from orders")).containsExactly(row(3L, 4L));
    }

    @Test
    void havingFiltersGroups() {
        assertThat(rows("select customer from orders group by customer having sum(amount) > 4"))
                .containsExactly(row(1L));
    }

    @Test
    void anAggregateInWhereIsMisuse() {
        assertThatThrownBy(() -> session.execute("select * from orders where count(*) > 1"))
                .hasMessageContaining("misuse of aggregate function count()");
    }

    @Test
    void scalarSubqueryAndCorrelatedSubquery() {
        assertThat(rows("select name, (select sum(amount) from orders o where o.customer = c.id) from customers c order by id"))
                .containsExactly(row("ann", 12L), row("bob", 3L), row("cy", null));
        assertThat(rows("select (select max(amount) from orders)")).containsExactly(row(7L));
    }

    @Test
    void inAndExistsSubqueries() {
        assertThat(rows("select name from customers where id in (select customer from orders) order by id"))
                .containsExactly(row("ann"), row("bob"));
        assertThat(rows("select name from customers c where not exists (select 1 from orders o where o.customer = c.id)"))
                .containsExactly(row("cy"));
    }

    @Test
    void inWithNullsFollowsThreeValuedLogic() {
        assertThat(rows("select 1 in (select city from customers), 'oslo' in (select city from customers)"))
                .containsExactly(row(null, 1L));
    }

    @Test
    void derivedTableInFrom() {
        assertThat(rows("select t.c, t.s from (select customer as c, sum(amount) as s from orders group by customer) t where t.s > 2 order by t.c"))
                .containsExactly(row(1L, 12L), row(2L, 3L));
    }

    @Test
    void setOperations() {
        assertThat(rows("select customer from orders union select id from customers order by 1"))
                .containsExactly(row(1L), row(2L), row(3L), row(9L));
        assertThat(rows("select customer from orders union all select id from customers")).hasSize(7);
        assertThat(rows("select customer from orders intersect select id from customers order by 1"))
                .containsExactly(row(1L), row(2L));
        assertThat(rows("select id from customers except select customer from orders")).containsExactly(row(3L));
    }

    @Test
    void setOperationMembersMustAgreeOnWidth() {
        assertThatThrownBy(() -> session.execute("select 1 union select 1, 2"))
                .hasMessageContaining("do not have the same number of result columns");
    }

    @Test
    void commonTableAndRecursiveCommonTable() {
        assertThat(rows("with big as (select * from orders where amount > 4) select count(*) from big"))
                .containsExactly(row(2L));
        assertThat(rows("with recursive n(x) as (select 1 union all select x + 1 from n where x < 5) select sum(x) from n"))
                .containsExactly(row(15L));
    }

    @Test
    void anUnboundedRecursionStopsAtTheOuterLimit() {
        assertThat(rows("with recursive n(x) as (select 1 union all select x + 1 from n) select x from n limit 3"))
                .containsExactly(row(1L), row(2L), row(3L));
    }

    @Test
    void generateSeriesAndLateralFanOut() {
        assertThat(rows("select value from generate_series(1, 7, 3)")).containsExactly(row(1L), row(4L), row(7L));
        assertThat(rows("select o.id, s.value from orders o cross join lateral generate_series(1, o.amount) s where o.id = 12"))
                .containsExactly(row(12L, 1L), row(12L, 2L), row(12L, 3L));
    }

    @Test
    void valuesIsAQuery() {
        assertThat(rows("select column2 from (values (1, 'a'), (2, 'b')) order by column1 desc"))
                .containsExactly(row("b"), row("a"));
    }

    @Test
    void writesMayUseSubqueries() {
        session.execute("delete from orders where customer not in (select id from customers)");
        session.execute("update customers set city = (select max(amount) from orders o where o.customer = customers.id)");
        session.execute("insert into orders values ((select max(id) + 1 from orders), 3, (select count(*) from customers))");
        assertThat(rows("select id, city from customers order by id"))
                .containsExactly(row(1L, "7"), row(2L, "3"), row(3L, null));
        assertThat(rows("select id, customer, amount from orders where id = 13")).containsExactly(row(13L, 3L, 3L));
    }

    @Test
    void aJoinOfManyTablesPlansAndRuns() {
        StringBuilder ddl = new StringBuilder();
        StringBuilder query = new StringBuilder("select count(*) from t0");
        for (int i = 0; i < 24; i++) {
            ddl.append("create table t").append(i).append(" (k integer primary key, v integer);\n");
            ddl.append("insert into t").append(i).append(" values (1, 1), (2, 2);\n");
            if (i > 0) {
                query.append(" join t").append(i).append(" on t").append(i).append(".k = t").append(i - 1).append(".v");
            }
        }
        script(ddl.toString());
        assertThat(rows(query.toString())).containsExactly(row(2L));
    }
}
