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
}
