package io.derive.engine.scenario;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScenarioFileParserTest {

    @Test
    void setupStatementsPrecedeEveryCase() {
        List<ScenarioCase> cases = ScenarioFileParser.parse("f.sql", """
                create table t (k integer primary key);
                -- case: one
                select 1;
                -- case: two
                select 2;
                """);
        assertThat(cases).extracting(ScenarioCase::name).containsExactly("one", "two");
        assertThat(cases.get(1).steps()).extracting(ScenarioStep::sql)
                .containsExactly("create table t (k integer primary key)", "select 2");
    }

    @Test
    void anExpectationAppliesToTheStatementAboveIt() {
        ScenarioCase c = ScenarioFileParser.parse("f.sql", """
                -- case: rows
                select 1, 'a'
                -- expect: rows (ordered)
                -- | 1 | a |
                -- | 2 | '' |
                insert into t values (1);
                -- expect: count 1
                select * from nope;
                -- expect: error no such table: nope
                """).get(0);
        assertThat(c.steps().get(0).expectation()).isEqualTo(
                new Expectation.Rows(true, List.of(List.of("1", "a"), List.of("2", "''"))));
        assertThat(c.steps().get(1).expectation()).isEqualTo(new Expectation.Count(1));
        assertThat(c.steps().get(2).expectation()).isEqualTo(new Expectation.Error("no such table: nope"));
    }

    @Test
    void semicolonsInsideStringsQuotedNamesAndCommentsDoNotSplit() {
        ScenarioCase c = ScenarioFileParser.parse("f.sql", """
                -- case: quoting
                select 'a;b', "c;d" /* e;f */ from t; select
                  2;
                """).get(0);
        assertThat(c.steps()).extracting(ScenarioStep::sql)
                .containsExactly("select 'a;b', \"c;d\"  from t", "select\n  2");
        assertThat(c.steps().get(1).line()).isEqualTo(2);
    }

    @Test
    void pendingAndDeriveOnlyMarkTheCase() {
        ScenarioCase c = ScenarioFileParser.parse("f.sql", """
                -- case: later
                -- pending: joins
                -- derive-only: lateral
                select 1;
                """).get(0);
        assertThat(c.pending()).isEqualTo("joins");
        assertThat(c.deriveOnly()).isEqualTo("lateral");
    }

    @Test
    void aMalformedDirectiveNamesFileAndLine() {
        assertThatThrownBy(() -> ScenarioFileParser.parse("f.sql", """
                -- case: bad
                select 1;
                -- expect: sorted rows
                """)).hasMessageContaining("f.sql:3");
    }

    @Test
    void quotedCellsMayHoldBarsAndDoubledQuotes() {
        assertThat(ValueText.parseCells("| 'a|b' | 'it''s' | x |")).containsExactly("'a|b'", "'it''s'", "x");
        assertThat(ValueText.render("a|b")).isEqualTo("'a|b'");
        assertThat(ValueText.render(2.0)).isEqualTo("2.0");
        assertThat(ValueText.render(new byte[] {0, (byte) 0xff})).isEqualTo("x'00ff'");
    }

    @Test
    void aDeltaListsTheChangesOfOneViewBesideTheResultExpectation() {
        ScenarioStep step = ScenarioFileParser.parse("f.sql", """
                -- case: deltas
                update t set v = 5
                -- expect: count 3
                -- expect: delta m
                -- | insert | 4 | c |
                -- | delete | 1 | a |
                -- | update | 2 | a |
                -- |     to | 2 | b |
                -- expect: delta main.other
                select 1;
                """).get(0).steps().get(0);
        assertThat(step.expectation()).isEqualTo(new Expectation.Count(3));
        assertThat(step.deltas()).containsExactly(
                new ExpectedDelta("m", List.of(ExpectedDelta.Change.insert(List.of("4", "c")),
                        ExpectedDelta.Change.delete(List.of("1", "a")),
                        ExpectedDelta.Change.update(List.of("2", "a"), List.of("2", "b")))),
                new ExpectedDelta("main.other", List.of()));
    }

    @Test
    void anUpdateLineNeedsItsToLineAndAToLineItsUpdate() {
        assertThatThrownBy(() -> ScenarioFileParser.parse("f.sql", """
                -- case: bad
                update t set v = 5;
                -- expect: delta m
                -- | update | 1 | a |
                -- | insert | 1 | b |
                """)).hasMessageContaining("f.sql:4").hasMessageContaining("followed by its 'to' line");
        assertThatThrownBy(() -> ScenarioFileParser.parse("f.sql", """
                -- case: bad
                update t set v = 5;
                -- expect: delta m
                -- | to | 1 | b |
                """)).hasMessageContaining("f.sql:4").hasMessageContaining("must follow an 'update' line");
        assertThatThrownBy(() -> ScenarioFileParser.parse("f.sql", """
                -- case: bad
                update t set v = 5;
                -- expect: delta m
                -- | upsert | 1 | b |
                """)).hasMessageContaining("f.sql:4").hasMessageContaining("insert, delete, update or to");
    }

    @Test
    void aDeltaBelongsToAStatementThatSucceedsAndNamesOneViewOnce() {
        assertThatThrownBy(() -> ScenarioFileParser.parse("f.sql", """
                -- case: bad
                insert into t values (1);
                -- expect: error UNIQUE
                -- expect: delta m
                """)).hasMessageContaining("f.sql:4").hasMessageContaining("must succeed");
        assertThatThrownBy(() -> ScenarioFileParser.parse("f.sql", """
                -- case: bad
                insert into t values (1);
                -- expect: delta m
                -- expect: delta M
                """)).hasMessageContaining("f.sql:4").hasMessageContaining("already has a delta for 'M'");
    }

    @Test
    void deltasCompareAsBagsAndTheirDifferenceShowsWhatWasMissedAndWhatWasExtra() {
        ExpectedDelta.Change insert = ExpectedDelta.Change.insert(List.of("4", "c"));
        ExpectedDelta.Change update = ExpectedDelta.Change.update(List.of("2", "a"), List.of("2", "b"));
        ExpectedDelta.Change delete = ExpectedDelta.Change.delete(List.of("2", "a"));
        assertThat(ExpectedDelta.matches(List.of(insert, update), List.of(update, insert))).isTrue();
        assertThat(ExpectedDelta.matches(List.of(insert, update), List.of(insert, delete))).isFalse();
        assertThat(ExpectedDelta.table(List.of(insert, update))).isEqualTo("""
                  | insert | 4 | c |
                  | update | 2 | a |
                  |     to | 2 | b |
                """);
        assertThat(ExpectedDelta.difference(List.of(insert, update), List.of(insert, delete))).isEqualTo("""
                - | update | 2 | a |
                - |     to | 2 | b |
                + | delete | 2 | a |
                """);
    }
}
