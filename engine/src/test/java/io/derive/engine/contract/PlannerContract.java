package io.derive.engine.contract;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.derive.engine.api.DeriveException;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the planner chooses, as {@code explain} shows it. */
public abstract class PlannerContract extends HostContractTest {

    @BeforeEach
    void tables() {
        script("""
                create table small (k integer primary key, v integer);
                create table big (a integer, b integer, x text, primary key (a, b));
                insert into small values (1, 1), (2, 2);
                """);
        for (int i = 0; i < 50; i++) {
            session.execute("insert into big values (?, ?, ?)", i % 5, i, "x" + i);
        }
    }

    private List<String> plan(String query) {
        return rows("explain " + query).stream().map(r -> ((String) r.get(0)).strip()).toList();
    }

    @Test
    void equalityOnTheKeyPrefixIsASeek() {
        assertThat(plan("select * from big where a = 3 and x <> 'q'"))
                .anyMatch(line -> line.equals("seek main.big on key prefix (a)"));
        assertThat(plan("select * from big where a = ? and b = ?"))
                .anyMatch(line -> line.equals("seek main.big on key prefix (a, b)"));
    }

    @Test
    void aRangeOnTheKeyColumnAfterThePrefixNarrowsTheSeek() {
        assertThat(plan("select * from big where a = 2 and b > 20 and b <= 40"))
                .anyMatch(line -> line.equals("seek main.big on key prefix (a) range of b"));
        assertThat(rows("select b from big where a = 2 and b > 20 and b <= 40 order by b"))
                .containsExactly(row(22L), row(27L), row(32L), row(37L));
        assertThat(rows("select count(*) from big where a between 1 and 2")).containsExactly(row(20L));
        assertThat(plan("select * from big where a between 1 and 2")).anyMatch(line -> line.equals("scan main.big range of a"));
    }

    @Test
    void aRangeWithANullBoundSelectsNothing() {
        assertThat(rows("select count(*) from big where a > null")).containsExactly(row(0L));
    }

    @Test
    void anOrderByTheKeysLeadingColumnsOverAKeyScanIsNotSorted() {
        assertThat(plan("select a, b from big where a >= 2 order by a, b limit 3 offset 2"))
                .noneMatch(line -> line.startsWith("sort")).anyMatch(line -> line.equals("scan main.big range of a"));
        assertThat(rows("select a, b from big where a >= 2 order by a, b limit 3 offset 2"))
                .containsExactly(row(2L, 12L), row(2L, 17L), row(2L, 22L));
        assertThat(plan("select x from big where a = 1 order by a")).noneMatch(line -> line.startsWith("sort"));
    }

    @Test
    void anOrderByAgainstTheKeysOrderIsSorted() {
        assertThat(plan("select a, b from big order by a desc")).anyMatch(line -> line.startsWith("sort"));
        assertThat(plan("select a, b from big order by b")).anyMatch(line -> line.startsWith("sort"));
        assertThat(plan("select a, b from big order by a collate nocase")).anyMatch(line -> line.startsWith("sort"));
        assertThat(plan("select a + 0 as a from big order by 1")).anyMatch(line -> line.startsWith("sort"));
        assertThat(rows("select b from big order by b desc limit 2")).containsExactly(row(49L), row(48L));
    }

    @Test
    void equalityOnAnIndexedColumnSeeksTheIndex() {
        session.execute("create index big_x on big (x)");
        assertThat(plan("select * from big where x = 'x7'")).anyMatch(line -> line.equals("seek main.big by index big_x on 1 column(s)"));
        assertThat(rows("select a, b from big where x = 'x7'")).containsExactly(row(2L, 7L));
    }

    @Test
    void aRangeOnAnIndexedColumnSeeksARangeOfTheIndex() {
        session.execute("create index big_x on big (x)");
        assertThat(plan("select * from big where x >= 'x40' and x < 'x43'"))
                .anyMatch(line -> line.equals("seek main.big by index big_x with a range"));
        assertThat(rows("select b from big where x >= 'x40' and x < 'x43' order by b")).containsExactly(row(40L), row(41L), row(42L));
    }

    @Test
    void aJoinOnAnIndexedColumnLooksRowsUpThroughTheIndex() {
        session.execute("create index big_x on big (x)");
        session.execute("create table names (n text primary key)");
        session.execute("insert into names values ('x3'), ('x4'), ('nope')");
        assertThat(plan("select * from names join big on big.x = names.n"))
                .anyMatch(line -> line.startsWith("inner join (index lookup)"))
                .anyMatch(line -> line.equals("seek main.big by index big_x"));
        assertThat(rows("select n, b from names join big on big.x = names.n order by b")).containsExactly(row("x3", 3L), row("x4", 4L));
    }

    @Test
    void aConditionOnALeftJoinsPreservedSideSeeksThatSideBeforeTheJoin() {
        assertThat(plan("select * from big g left join small s on s.k = g.b where g.a = 2 and g.b = 7"))
                .anyMatch(line -> line.equals("seek main.big on key prefix (a, b)"));
        assertThat(plan("select * from small s right join big g on s.k = g.b where g.a = 2"))
                .anyMatch(line -> line.equals("seek main.big on key prefix (a)"));
        assertThat(rows("select g.b, s.v from big g left join small s on s.k = g.b where g.a = 1 and s.v is null order by g.b"))
                .containsExactly(row(6L, null), row(11L, null), row(16L, null), row(21L, null), row(26L, null), row(31L, null),
                        row(36L, null), row(41L, null), row(46L, null));
        assertThat(rows("select g.b, s.v from big g left join small s on s.k = g.b where g.a = 1 and g.b < 10 order by g.b"))
                .containsExactly(row(1L, 1L), row(6L, null));
    }

    @Test
    void aConditionOnANonLeadingKeyColumnScans() {
        assertThat(plan("select * from big where b = 3")).anyMatch(line -> line.equals("scan main.big"));
    }

    @Test
    void aJoinOnTheRightTablesKeyPrefixLooksItUp() {
        assertThat(plan("select * from small s join big g on g.a = s.v"))
                .anyMatch(line -> line.startsWith("inner join (index lookup)"));
    }

    @Test
    void theSmallerSourceDrivesTheJoin() {
        List<String> lines = plan("select * from big g join small s on g.a = s.v");
        int join = lines.indexOf(lines.stream().filter(l -> l.startsWith("inner join")).findFirst().orElseThrow());
        assertThat(lines.get(join + 1)).isEqualTo("scan main.small");
    }

    @Test
    void reorderedJoinsKeepTheWrittenColumnOrder() {
        assertThat(rows("select * from big g join small s on g.a = s.v where g.b = 6"))
                .containsExactly(row(1L, 6L, "x6", 1L, 1L));
    }

    @Test
    void whereConditionsOnOneSourceArePushedToIt() {
        List<String> lines = plan("select * from small s join big g on g.a = s.v where s.k = 2");
        assertThat(lines).anyMatch(line -> line.equals("seek main.small on key prefix (k)"));
    }

    @Test
    void indexedByReachesTheRowsThroughTheNamedIndexEvenWhereTheKeyWouldServe() {
        script("""
                create index big_x on big (x);
                create index big_b on big (b);
                """);
        assertThat(plan("select x from big indexed by big_b where a = 3 and b = 13"))
                .anyMatch(line -> line.equals("seek main.big by index big_b on 1 column(s)"))
                .noneMatch(line -> line.contains("key prefix"));
        assertThat(rows("select x from big indexed by big_b where a = 3 and b = 13")).containsExactly(row("x13"));
    }

    @Test
    void indexedByWithoutAConditionOnTheIndexReadsTheWholeIndex() {
        session.execute("create index big_x on big (x)");
        assertThat(plan("select b from big indexed by big_x where a = 0"))
                .anyMatch(line -> line.equals("seek main.big by index big_x"));
        assertThat(rows("select count(*), sum(b) from big indexed by big_x where a = 0"))
                .isEqualTo(rows("select count(*), sum(b) from big where a = 0"));
    }

    @Test
    void notIndexedKeepsTheQueryOffSecondaryIndexesButNotOffTheKey() {
        session.execute("create index big_x on big (x)");
        assertThat(plan("select a, b from big not indexed where x = 'x7'"))
                .anyMatch(line -> line.equals("scan main.big"))
                .noneMatch(line -> line.contains("by index"));
        assertThat(plan("select x from big not indexed where a = 2")).anyMatch(line -> line.equals("seek main.big on key prefix (a)"));
        assertThat(plan("select * from small s join big g not indexed on g.x = 'x' || s.v"))
                .noneMatch(line -> line.contains("by index"));
        assertThat(rows("select a, b from big not indexed where x = 'x7'")).containsExactly(row(2L, 7L));
    }

    @Test
    void updateAndDeleteHonourTheirIndexClause() {
        session.execute("create index big_x on big (x)");
        session.execute("update big indexed by big_x set x = 'seven' where x = 'x7'");
        session.execute("delete from big not indexed where x = 'x8'");

        assertThat(rows("select b from big where x in ('seven', 'x7', 'x8') order by b")).containsExactly(row(7L));
        assertThat(rows("select count(*) from big")).containsExactly(row(49L));
    }

    @Test
    void indexedByAnIndexTheTableLacksFailsNamingItAndWhereItIsWritten() {
        session.execute("create index small_v on small (v)");
        assertThatThrownBy(() -> rows("select * from big indexed by small_v where a = 1"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such index: small_v").hasMessageContaining("main.big").hasMessageEndingWith("1:30");
        assertThatThrownBy(() -> session.execute("delete from big indexed by nope where a = 1"))
                .hasMessageContaining("no such index: nope");
    }

    @Test
    void indexedByAPartialIndexHasNoQuerySolution() {
        session.execute("create index big_some on big (x) where b > 10");
        assertThatThrownBy(() -> rows("select * from big indexed by big_some where x = 'x20' and b > 10"))
                .isInstanceOf(DeriveException.class).hasMessageContaining("no query solution");
    }

    @Test
    void aKeyRangeOnADerivedTablesPassThroughColumnSeeksItsSource() {
        String query = "select * from (select a, b, b * 2 w from big) d where a = 2 and b > 20 and b <= 40";
        assertThat(plan(query)).anyMatch(line -> line.equals("seek main.big on key prefix (a) range of b"));
        assertThat(rows(query + " order by b"))
                .containsExactly(row(2L, 22L, 44L), row(2L, 27L, 54L), row(2L, 32L, 64L), row(2L, 37L, 74L));
    }

    @Test
    void anInnerJoinsOnConditionOnADerivedTableSeeksItsSource() {
        String query = "select s.k, d.b from small s join (select a, b from big) d on d.a = s.k and d.a = 2 and d.b > 40";
        assertThat(plan(query)).anyMatch(line -> line.equals("seek main.big on key prefix (a) range of b"));
        assertThat(rows(query)).containsExactly(row(2L, 42L), row(2L, 47L));
    }

    @Test
    void aPushedConditionKeepsTheIndexClauseInsideADerivedTable() {
        session.execute("create index big_x on big (x)");
        assertThat(plan("select * from (select a, b, x from big indexed by big_x) d where a = 2 and b = 7"))
                .anyMatch(line -> line.equals("seek main.big by index big_x"))
                .noneMatch(line -> line.contains("key prefix"));
        assertThat(plan("select * from (select a, b, x from big not indexed) d where x = 'x7'"))
                .anyMatch(line -> line.equals("scan main.big"))
                .noneMatch(line -> line.contains("by index"));
        assertThat(rows("select a, b from (select a, b, x from big not indexed) d where x = 'x7'")).containsExactly(row(2L, 7L));
        assertThat(plan("select * from (select a, b, x from big) d where x = 'x7'"))
                .anyMatch(line -> line.equals("seek main.big by index big_x on 1 column(s)"));
    }

    @Test
    void aKeyRangeOnAViewSeeksTheViewsSource() {
        session.execute("create view doubled as select a, b, b * 2 w from big where x <> 'x0'");
        String query = "select b, w from doubled where a > 3 and a <= 4 and b < 20";
        assertThat(plan(query)).anyMatch(line -> line.equals("scan main.big range of a"));
        assertThat(rows(query + " order by b")).containsExactly(row(4L, 8L), row(9L, 18L), row(14L, 28L), row(19L, 38L));
    }

    @Test
    void aKeyEqualityOnACommonTableSeeksItsSource() {
        String query = "with c as (select a k, x from big) select x from c where k = 3 and x >= 'x40'";
        assertThat(plan(query)).anyMatch(line -> line.equals("seek main.big on key prefix (a)"));
        assertThat(rows(query + " order by x")).containsExactly(row("x43"), row("x48"), row("x8"));
    }

    @Test
    void aConditionOnAGroupKeyOfAnAggregatingDerivedTableSeeksItsSource() {
        String query = "select * from (select a, count(*) n, sum(b) s from big group by a) g where a = 1";
        assertThat(plan(query)).anyMatch(line -> line.equals("seek main.big on key prefix (a)"));
        assertThat(rows(query)).containsExactly(row(1L, 10L, 235L));
    }

    @Test
    void aConditionOnAnAggregateIsNotPushedBelowTheGrouping() {
        String query = "select a from (select a, sum(b) s from big group by a) g where s > 240";
        assertThat(plan(query)).anyMatch(line -> line.equals("scan main.big"));
        assertThat(rows(query + " order by a")).containsExactly(row(2L), row(3L), row(4L));
        assertThat(rows("select count(*) from (select count(*) n from big) where n > 0")).containsExactly(row(1L));
        assertThat(rows("select count(*) from (select count(*) n from big where a < 0) where n = 0")).containsExactly(row(1L));
    }

    @Test
    void aConditionIsNotPushedBelowALimit() {
        String query = "select k from (select * from small order by k limit 1) where k > 1";
        assertThat(plan(query)).noneMatch(line -> line.contains("seek") || line.contains("range"));
        assertThat(rows(query)).isEmpty();
        assertThat(rows("select b from (select * from big order by a, b limit 3) where a >= 0 and b > 5 order by b"))
                .containsExactly(row(10L));
    }

    @Test
    void aConditionOnAUnionAllReachesBothSides() {
        String query = "select * from (select a, b from big union all select k, v from small) u where a = 1 and b < 10";
        assertThat(plan(query)).anyMatch(line -> line.equals("seek main.big on key prefix (a) range of b"))
                .anyMatch(line -> line.equals("seek main.small on key prefix (k)"));
        assertThat(rows(query + " order by b")).containsExactly(row(1L, 1L), row(1L, 1L), row(1L, 6L));
    }

    @Test
    void aNonDeterministicConditionIsNotPushed() {
        String query = "select count(*) from (select a, b from big) d where a = 1 and random() % 1 = 0";
        assertThat(plan(query)).anyMatch(line -> line.equals("seek main.big on key prefix (a)"));
        assertThat(plan(query).stream().filter(line -> line.contains("random"))).hasSize(1);
        assertThat(rows(query)).containsExactly(row(10L));
        assertThat(plan("select * from (select a, random() r from big) d where a = 1 and r <> 0.5"))
                .anyMatch(line -> line.equals("seek main.big on key prefix (a)"));
    }

    @Test
    void aConditionOnTheNullPaddedSideOfAnOuterJoinInsideADerivedTableIsNotPushedThere() {
        String query = "select k, b from (select s.k, g.b from small s left join big g on g.b = s.k * 10) d "
                + "where b is null";
        assertThat(rows(query)).isEmpty();
        assertThat(rows("select k, b from (select s.k, g.a, g.b from small s left join big g on g.a = s.k and g.b < 3) d "
                + "where a = 1 or b is null")).containsExactly(row(1L, 1L));
    }

    @Test
    void aComparisonUnderTheDerivedColumnsCollationKeepsItsMeaningWhenPushed() {
        script("""
                create table words (w text collate nocase primary key, n integer);
                insert into words values ('Apple', 1), ('banana', 2), ('Cherry', 3);
                """);
        assertThat(rows("select n from (select w, n from words) d where w = 'apple'")).containsExactly(row(1L));
        assertThat(rows("select n from (select w collate binary v, n from words) d where v = 'apple'")).isEmpty();
        assertThat(rows("select n from (select distinct w, n from words) d where w > 'b' order by n"))
                .containsExactly(row(2L), row(3L));
        // A limit keeps the condition above the derived table: the pushed condition must agree with it.
        assertThat(rows("select n from (select w || '' v, n from words) d where v = 'apple'"))
                .isEqualTo(rows("select n from (select w || '' v, n from words limit -1) d where v = 'apple'"));
        assertThat(rows("select n from (select n * 2 m, n from words) d where m > '3' order by n"))
                .isEqualTo(rows("select n from (select n * 2 m, n from words limit -1) d where m > '3' order by n"));
    }

    @Test
    void aConditionThatTellsEqualGroupKeysApartIsNotPushedBelowTheGrouping() {
        script("""
                create table nums (id integer primary key, v);
                insert into nums values (1, 1), (2, 1.0), (3, 'a'), (4, 'A');
                """);
        assertThat(rows("select v, n from (select v, count(*) n from nums group by v) where typeof(v) = 'real'"))
                .isEqualTo(rows("select v, n from (select v, count(*) n from nums group by v limit -1) where typeof(v) = 'real'"));
        assertThat(rows("select count(*) from (select v from nums union select 1.0) where typeof(v) = 'real'"))
                .isEqualTo(rows("select count(*) from (select v from nums union select 1.0 limit -1) where typeof(v) = 'real'"));
        assertThat(rows("select count(*) from (select v collate nocase v from nums group by 1) where v = 'a'"))
                .containsExactly(row(1L));
    }
}
