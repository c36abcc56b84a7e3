package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tags on materialized views (semantics §2): metadata shown by {@code schema()} and
 * {@code materialized_views()} as JSON object text, in the canonical DDL as {@code with tags},
 * changed by {@code alter materialized view} without a rebuild, and rolled back like DDL.
 */
public abstract class MaterializedViewTagsContract extends HostContractTest {

    private void tagged() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'a');
                create materialized view m as select k, v from t with tags (owner = 'ops', tier = '1');
                """);
    }

    private Object tags() {
        return rows("select tags from schema() where name = 'm'").get(0).get(0);
    }

    @Test
    void createWithTagsShowsThemAsJsonInInsertionOrder() {
        tagged();
        assertThat(tags()).isEqualTo("{\"owner\":\"ops\",\"tier\":\"1\"}");
        assertThat(rows("select tags from materialized_views() where name = 'm'"))
                .containsExactly(row("{\"owner\":\"ops\",\"tier\":\"1\"}"));
    }

    @Test
    void aMaterializedViewWithoutTagsShowsAnEmptyObjectAsATableDoes() {
        script("""
                create table t (k integer primary key, v text);
                create materialized view m as select k, v from t;
                """);
        assertThat(rows("select name, tags from schema() order by name")).containsExactly(row("m", "{}"), row("t", "{}"));
    }

    @Test
    void canonicalDdlEndsWithTheTags() {
        tagged();
        assertThat((String) rows("select sql from schema() where name = 'm'").get(0).get(0))
                .endsWith("maintained as select k, v from t with tags (owner = 'ops', tier = '1')");
    }

    @Test
    void aTagValueIsAnyLiteralShownAsJsonOfItsTypeAndWrittenBackAsThatLiteral() {
        script("""
                create table t (k integer primary key);
                create materialized view m as select k from t with tags (owner = 'ann', n = 3, x = 1.5, b = true, z = null);
                """);
        session.execute("alter materialized view m add tags (d = -3, f = false)");
        String json = "{\"owner\":\"ann\",\"n\":3,\"x\":1.5,\"b\":true,\"z\":null,\"d\":-3,\"f\":false}";
        assertThat(tags()).isEqualTo(json);
        assertThat(rows("select tags from materialized_views()")).containsExactly(row(json));
        assertThat((String) rows("select sql from schema() where name = 'm'").get(0).get(0))
                .endsWith("with tags (owner = 'ann', n = 3, x = 1.5, b = true, z = null, d = -3, f = false)");
    }

    @Test
    void aNonLiteralTagValueIsRefusedAtItsPositionAndChangesNothing() {
        tagged();
        assertThatThrownBy(() -> session.execute("alter materialized view m add tags (n = 1 + 2)"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("a tag value must be a literal (a string, a finite number, true, false or null), "
                        + "not 1 + 2 at 1:41");
        assertThat(tags()).isEqualTo("{\"owner\":\"ops\",\"tier\":\"1\"}");
    }

    @Test
    void jsonEscapesQuotesBackslashesAndControlCharacters() {
        script("""
                create table t (k integer primary key);
                create materialized view m as select k from t with tags (note = 'say "hi" \\ now');
                """);
        session.execute("alter materialized view m add tags (\"line\" = '" + "a\nb" + "')");
        assertThat(tags()).isEqualTo("{\"note\":\"say \\\"hi\\\" \\\\ now\",\"line\":\"a\\nb\"}");
    }

    @Test
    void setTagsReplacesAllOfThem() {
        tagged();
        session.execute("alter materialized view m set tags (team = 'data')");
        assertThat(tags()).isEqualTo("{\"team\":\"data\"}");
    }

    @Test
    void addTagsOverwritesInPlaceAndAppendsNewKeys() {
        tagged();
        session.execute("alter materialized view m add tags (tier = '2', team = 'data')");
        assertThat(tags()).isEqualTo("{\"owner\":\"ops\",\"tier\":\"2\",\"team\":\"data\"}");
    }

    @Test
    void dropTagsRemovesKeys() {
        tagged();
        session.execute("alter materialized view m drop tags (owner)");
        assertThat(tags()).isEqualTo("{\"tier\":\"1\"}");
    }

    @Test
    void droppingAnAbsentTagNamesItAndChangesNothing() {
        tagged();
        assertThatThrownBy(() -> session.execute("alter materialized view m drop tags (tier, nope)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such tag: nope");
        assertThat(tags()).isEqualTo("{\"owner\":\"ops\",\"tier\":\"1\"}");
    }

    @Test
    void tagsNeverRebuildTheView() {
        tagged();
        session.execute("alter materialized view m set tags (a = 'b')");
        assertThat(rows("select body_evaluations from materialized_views()")).containsExactly(row(1L));
        assertThat(rows("select k, v from m")).containsExactly(row(1L, "a"));
    }

    @Test
    void theViewStaysMaintainedAfterATagChange() {
        tagged();
        session.execute("alter materialized view m add tags (a = 'b')");
        session.execute("insert into t values (2, 'b')");
        assertThat(rows("select k from m order by k")).containsExactly(row(1L), row(2L));
    }

    @Test
    void rollbackUndoesATagChange() {
        tagged();
        session.execute("begin");
        session.execute("alter materialized view m drop tags (owner)");
        assertThat(tags()).isEqualTo("{\"tier\":\"1\"}");
        session.execute("rollback");
        assertThat(tags()).isEqualTo("{\"owner\":\"ops\",\"tier\":\"1\"}");
    }

    @Test
    void unknownMaterializedViewIsNamed() {
        assertThatThrownBy(() -> session.execute("alter materialized view nope set tags (a = 'b')"))
                .hasMessageContaining("no such materialized view: nope");
    }

    @Test
    void aTableIsNotAMaterializedView() {
        session.execute("create table t (k integer primary key)");
        assertThatThrownBy(() -> session.execute("alter materialized view t set tags (a = 'b')"))
                .hasMessageContaining("'t' is a table, not a materialized view");
    }

    @Test
    void alterTableOnAMaterializedViewPointsToAlterMaterializedViewForTags() {
        tagged();
        assertThatThrownBy(() -> session.execute("alter table m set tags (a = 'b')"))
                .hasMessageContaining("use ALTER MATERIALIZED VIEW for tags");
        assertThat(tags()).isEqualTo("{\"owner\":\"ops\",\"tier\":\"1\"}");
    }
}
