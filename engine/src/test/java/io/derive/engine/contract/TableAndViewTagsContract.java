package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tags on plain tables and views (semantics §2): written with {@code with tags (…)} on create,
 * changed by {@code alter table t} and {@code alter view v set|add|drop tags (…)} without
 * touching rows or bodies, rolled back like DDL; a value is any literal, shown as JSON of its type.
 */
public abstract class TableAndViewTagsContract extends HostContractTest {

    private static final String EVERY_TYPE = "{\"owner\":\"ann\",\"n\":3,\"x\":1.5,\"b\":true,\"f\":false,\"z\":null,\"d\":-3}";

    private void taggedTableAndView() {
        script("""
                create table t (k integer primary key, v text) with tags (owner = 'ann', tier = 1);
                insert into t values (1, 'a');
                create view v as select k from t with tags (owner = 'bob');
                """);
    }

    private Object tags(String name) {
        return rows("select tags from schema() where name = ?", name).get(0).get(0);
    }

    private Object sql(String name) {
        return rows("select sql from schema() where name = ?", name).get(0).get(0);
    }

    @Test
    void aTagValueIsAnyLiteralShownAsJsonOfItsType() {
        session.execute("create table t (k integer primary key) with tags "
                + "(owner = 'ann', n = 3, x = 1.5, b = true, f = false, z = null, d = -3)");
        session.execute("create view v as select k from t with tags "
                + "(owner = 'ann', n = 3, x = 1.5, b = true, f = false, z = null, d = -3)");
        assertThat(tags("t")).isEqualTo(EVERY_TYPE);
        assertThat(tags("v")).isEqualTo(EVERY_TYPE);
    }

    @Test
    void aTableAndAViewWithoutTagsShowAnEmptyObjectAndAnIndexNull() {
        script("""
                create table t (k integer primary key, v text);
                create index t_v on t (v);
                create view v as select k from t;
                """);
        assertThat(rows("select name, tags from schema() order by name"))
                .containsExactly(row("t", "{}"), row("t_v", null), row("v", "{}"));
    }

    @Test
    void canonicalDdlOfATableAndAViewEndsWithTheirTagsAsLiterals() {
        session.execute("create table t (k integer primary key) using " + config().defaultHost()
                + " with tags (owner = 'ann', n = 3, x = 1.5, b = true, z = null, d = -3)");
        session.execute("create view v as select k from t with tags (\"Two words\" = 'it''s')");
        assertThat(sql("t")).isEqualTo("create table main.t (k integer not null, primary key (k)) using "
                + config().defaultHost() + " with tags (owner = 'ann', n = 3, x = 1.5, b = true, z = null, d = -3)");
        assertThat(sql("v")).isEqualTo("create view main.v as select k from t with tags (\"Two words\" = 'it''s')");
    }

    @Test
    void canonicalDdlReadsBackAsTheSameTags() {
        session.execute("create table t (k integer primary key) with tags (n = 3, b = true, z = null, d = -3.25)");
        String ddl = (String) sql("t");
        session.execute("drop table t");
        session.execute(ddl);
        assertThat(tags("t")).isEqualTo("{\"n\":3,\"b\":true,\"z\":null,\"d\":-3.25}");
    }

    @Test
    void alterTableSetTagsReplacesAllOfThem() {
        taggedTableAndView();
        session.execute("alter table t set tags (team = 'data')");
        assertThat(tags("t")).isEqualTo("{\"team\":\"data\"}");
    }

    @Test
    void alterTableAddTagsOverwritesInPlaceAndAppendsNewKeys() {
        taggedTableAndView();
        session.execute("alter table t add tags (tier = 2, team = 'data')");
        assertThat(tags("t")).isEqualTo("{\"owner\":\"ann\",\"tier\":2,\"team\":\"data\"}");
    }

    @Test
    void alterTableDropTagsRemovesKeys() {
        taggedTableAndView();
        session.execute("alter table t drop tags (owner)");
        assertThat(tags("t")).isEqualTo("{\"tier\":1}");
    }

    @Test
    void alterViewSetAddAndDropTags() {
        taggedTableAndView();
        session.execute("alter view v set tags (a = 1)");
        assertThat(tags("v")).isEqualTo("{\"a\":1}");
        session.execute("alter view v add tags (b = true, a = 'one')");
        assertThat(tags("v")).isEqualTo("{\"a\":\"one\",\"b\":true}");
        session.execute("alter view v drop tags (a)");
        assertThat(tags("v")).isEqualTo("{\"b\":true}");
    }

    @Test
    void droppingAnAbsentTagOfATableNamesItAndChangesNothing() {
        taggedTableAndView();
        assertThatThrownBy(() -> session.execute("alter table t drop tags (tier, nope)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such tag: nope on table 'main.t'");
        assertThat(tags("t")).isEqualTo("{\"owner\":\"ann\",\"tier\":1}");
    }

    @Test
    void droppingAnAbsentTagOfAViewNamesItAndChangesNothing() {
        taggedTableAndView();
        assertThatThrownBy(() -> session.execute("alter view v drop tags (owner, nope)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such tag: nope on view 'main.v'");
        assertThat(tags("v")).isEqualTo("{\"owner\":\"bob\"}");
    }

    @Test
    void aTagWhoseValueIsNullCanBeDropped() {
        session.execute("create table t (k integer primary key) with tags (z = null)");
        session.execute("alter table t drop tags (z)");
        assertThat(tags("t")).isEqualTo("{}");
    }

    @Test
    void aKeyTwiceInOneListIsRefused() {
        assertThatThrownBy(() -> session.execute("create table t (k integer primary key) with tags (a = 1, a = 2)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("duplicate tag key: a");
        assertThat(rows("select name from schema()")).isEmpty();
    }

    @Test
    void anExpressionAsATagValueIsRefusedAtItsPositionAndChangesNothing() {
        taggedTableAndView();
        assertThatThrownBy(() -> session.execute("alter table t add tags (n = 1 + 2)"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("a tag value must be a literal (a string, a finite number, true, false or null), "
                        + "not 1 + 2 at 1:29");
        assertThat(tags("t")).isEqualTo("{\"owner\":\"ann\",\"tier\":1}");
    }

    @Test
    void aColumnAsATagValueIsRefusedAtItsPositionAndCreatesNothing() {
        assertThatThrownBy(() -> session.execute("create table t (k integer primary key) with tags (n = k)"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("a tag value must be a literal (a string, a finite number, true, false or null), "
                        + "not k at 1:55");
        assertThat(rows("select name from schema()")).isEmpty();
    }

    @Test
    void rollbackUndoesTagChangesOfATableAndAView() {
        taggedTableAndView();
        session.execute("begin");
        session.execute("alter table t drop tags (owner)");
        session.execute("alter view v set tags (a = 1)");
        assertThat(tags("t")).isEqualTo("{\"tier\":1}");
        session.execute("rollback");
        assertThat(tags("t")).isEqualTo("{\"owner\":\"ann\",\"tier\":1}");
        assertThat(tags("v")).isEqualTo("{\"owner\":\"bob\"}");
    }

    @Test
    void aTagChangeOfASourceNeitherRebuildsNorStopsTheViewsOverIt() {
        taggedTableAndView();
        session.execute("create materialized view m as select k, v from t");
        session.execute("alter table t set tags (a = 'b')");
        assertThat(rows("select body_evaluations, stale from materialized_views()")).containsExactly(row(1L, false));
        session.execute("insert into t values (2, 'b')");
        assertThat(rows("select k from m order by k")).containsExactly(row(1L), row(2L));
        assertThat(rows("select k from v order by k")).containsExactly(row(1L), row(2L));
    }

    @Test
    void reshapingOrRenamingATableKeepsItsTags() {
        taggedTableAndView();
        session.execute("alter table t add column c integer");
        session.execute("alter table t rename to u");
        assertThat(tags("u")).isEqualTo("{\"owner\":\"ann\",\"tier\":1}");
    }

    @Test
    void aTableKeepsItsTagsWhenItBecomesMaintainedAndWhenItStops() {
        script("""
                create table s (k integer primary key, v text);
                create table t (k integer primary key, v text) with tags (owner = 'ann');
                alter table t set maintained as select k, v from s;
                """);
        assertThat(rows("select tags from materialized_views() where name = 't'")).containsExactly(row("{\"owner\":\"ann\"}"));
        session.execute("alter materialized view t add tags (n = 1)");
        session.execute("alter table t drop maintained");
        assertThat(tags("t")).isEqualTo("{\"owner\":\"ann\",\"n\":1}");
    }

    @Test
    void alterViewOnATableIsRefusedWithTheStatementThatFits() {
        taggedTableAndView();
        session.execute("create materialized view m as select k from t");
        assertThatThrownBy(() -> session.execute("alter view t set tags (a = 1)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("'t' is a table, not a view: use ALTER TABLE");
        assertThatThrownBy(() -> session.execute("alter view m set tags (a = 1)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("'m' is a materialized view, not a view: use ALTER MATERIALIZED VIEW");
        assertThatThrownBy(() -> session.execute("alter view nope set tags (a = 1)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such view: nope");
    }

    @Test
    void alterTableOnAViewPointsToAlterViewForTags() {
        taggedTableAndView();
        assertThatThrownBy(() -> session.execute("alter table v set tags (a = 1)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("cannot alter view 'v': alter table applies to tables; use ALTER VIEW for tags");
        assertThat(tags("v")).isEqualTo("{\"owner\":\"bob\"}");
    }
}
