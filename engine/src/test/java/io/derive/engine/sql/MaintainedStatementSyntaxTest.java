package io.derive.engine.sql;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.Statement;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The statement forms of semantics §2 (and {@code analyze}), parsed with their spans. */
class MaintainedStatementSyntaxTest {

    @Test
    void createMaterializedViewTakesTrailingTagsOutsideItsBodyText() {
        String sql = "create materialized view m as select k from t with tags (owner = 'ops', \"Tier\" = '1')";
        Statement.CreateMaterializedView mv = (Statement.CreateMaterializedView) Parser.parseStatement(sql);
        assertThat(mv.bodySql()).isEqualTo("select k from t");
        assertThat(mv.tags()).extracting(Statement.Tag::key).containsExactly("owner", "Tier");
        assertThat(mv.tags()).extracting(Statement.Tag::value).containsExactly("ops", "1");
        assertThat(mv.tags().get(0).span().text(sql)).isEqualTo("owner = 'ops'");
    }

    @Test
    void aTagKeyMayAppearOnceInAList() {
        assertThatThrownBy(() -> Parser.parseStatement("create materialized view m as select k from t"
                + " with tags (a = 'x', a = 'y')"))
                .isInstanceOf(DeriveException.class).hasMessageContaining("duplicate tag key: a")
                .hasMessageContaining("1:67");
    }

    @Test
    void aTagValueIsALiteralKeptAsAValueOfItsType() {
        Statement.PutTags set = (Statement.PutTags) ((Statement.AlterMaterializedView) Parser.parseStatement(
                "alter materialized view m set tags (s = 'x', n = 3, r = 1.5, t = true, f = FALSE, z = null, d = -3)"))
                .action();
        assertThat(set.tags()).extracting(Statement.Tag::value)
                .containsExactly("x", 3L, 1.5, true, false, null, -3L);
    }

    @Test
    void aTagValueThatIsNotALiteralIsRefusedWhereItStands() {
        for (String value : List.of("1 + 2", "k", "x'00'", "1e999", "true and false", "?")) {
            assertThatThrownBy(() -> Parser.parseStatement("alter view v set tags (a = " + value + ")"))
                    .as(value)
                    .isInstanceOf(DeriveException.class)
                    .hasMessage("a tag value must be a literal (a string, a finite number, true, false or null), not "
                            + value + " at 1:28");
        }
    }

    @Test
    void createTableFormCarriesDeclaredShapeRenamesBodyAndTags() {
        String sql = """
                create table s (a integer primary key, b text) using memory maintained (a, b)
                  as select k, v from t with tags (x = 'y')""";
        Statement.CreateMaintainedTable c = (Statement.CreateMaintainedTable) Parser.parseStatement(sql);
        assertThat(c.table().columns()).extracting(Statement.ColumnDef::name).containsExactly("a", "b");
        assertThat(c.table().host().module()).isEqualTo("memory");
        assertThat(c.columnNames()).containsExactly("a", "b");
        assertThat(c.bodySql()).isEqualTo("select k, v from t");
        assertThat(c.table().tags()).hasSize(1);
        assertThat(c.span().text(sql)).isEqualTo(sql);
    }

    @Test
    void alterTableSetMaintainedKeepsItsBodyText() {
        String sql = "alter table s set maintained (a) as select k from t";
        Statement.AlterTable a = (Statement.AlterTable) Parser.parseStatement(sql);
        Statement.SetMaintained set = (Statement.SetMaintained) a.action();
        assertThat(set.columnNames()).containsExactly("a");
        assertThat(set.bodySql()).isEqualTo("select k from t");
        assertThat(set.span().text(sql)).isEqualTo("set maintained (a) as select k from t");
    }

    @Test
    void alterTableDropMaintainedIsTheVerbButDropColumnMaintainedIsAColumn() {
        assertThat(((Statement.AlterTable) Parser.parseStatement("alter table s drop maintained")).action())
                .isInstanceOf(Statement.DropMaintained.class);
        assertThat(((Statement.AlterTable) Parser.parseStatement("alter table s drop column maintained")).action())
                .isInstanceOf(Statement.DropColumn.class);
    }

    @Test
    void alterMaterializedViewTagVerbs() {
        Statement.PutTags set = (Statement.PutTags) ((Statement.AlterMaterializedView) Parser.parseStatement(
                "alter materialized view m set tags (a = 'x')")).action();
        assertThat(set.replace()).isTrue();
        Statement.PutTags add = (Statement.PutTags) ((Statement.AlterMaterializedView) Parser.parseStatement(
                "alter materialized view m add tags (a = 'x', b = 'y')")).action();
        assertThat(add.replace()).isFalse();
        assertThat(add.tags()).hasSize(2);
        String sql = "alter materialized view main.m drop tags (a, 'b c')";
        Statement.AlterMaterializedView drop = (Statement.AlterMaterializedView) Parser.parseStatement(sql);
        assertThat(((Statement.DropTags) drop.action()).keys()).containsExactly("a", "b c");
        assertThat(drop.name().schema()).isEqualTo("main");
        assertThat(drop.action().span().text(sql)).isEqualTo("drop tags (a, 'b c')");
    }

    @Test
    void alterMaterializedViewRefreshSchedules() {
        Statement.RefreshSchedule set = (Statement.RefreshSchedule) ((Statement.AlterMaterializedView) Parser
                .parseStatement("alter materialized view m set refresh schedule '0 * * * *'")).action();
        assertThat(set.cron()).isEqualTo("0 * * * *");
        Statement.RefreshSchedule drop = (Statement.RefreshSchedule) ((Statement.AlterMaterializedView) Parser
                .parseStatement("alter materialized view m drop refresh schedule")).action();
        assertThat(drop.cron()).isNull();
    }

    @Test
    void alterMaterializedViewWithoutAnActionSaysWhatIsExpected() {
        assertThatThrownBy(() -> Parser.parseStatement("alter materialized view m rename to n"))
                .hasMessageContaining("expected 'set tags', 'add tags', 'drop tags'");
    }

    @Test
    void tagsAfterAlterTableAreParsedSoTheyCanBeRefused() {
        assertThat(((Statement.AlterTable) Parser.parseStatement("alter table m add tags (a = 'x')")).action())
                .isInstanceOf(Statement.TableTags.class);
    }

    @Test
    void addConstraintCarriesTheConstraint() {
        String sql = "alter table p add constraint adult check (age >= 18)";
        Statement.AddConstraint add = (Statement.AddConstraint) ((Statement.AlterTable) Parser.parseStatement(sql)).action();
        Statement.CheckDef check = (Statement.CheckDef) add.constraint();
        assertThat(check.name()).isEqualTo("adult");
        assertThat(check.sql()).isEqualTo("age >= 18");
        assertThat(add.span().text(sql)).isEqualTo("add constraint adult check (age >= 18)");
        Statement.AddConstraint fk = (Statement.AddConstraint) ((Statement.AlterTable) Parser.parseStatement(
                "alter table c add foreign key (p) references p (id) on delete cascade")).action();
        assertThat(((Statement.ForeignKeyDef) fk.constraint()).onDelete()).isEqualTo(Statement.ReferentialAction.CASCADE);
        Statement.AddConstraint unique = (Statement.AddConstraint) ((Statement.AlterTable) Parser.parseStatement(
                "alter table c add unique (a, b desc)")).action();
        assertThat(((Statement.UniqueDef) unique.constraint()).columns()).hasSize(2);
    }

    @Test
    void addPrimaryKeyIsRefusedCleanly() {
        assertThatThrownBy(() -> Parser.parseStatement("alter table p add primary key (id)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("add primary key is not supported")
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.FEATURE_NOT_SUPPORTED);
    }

    @Test
    void analyzeTakesAnOptionalTable() {
        assertThat(((Statement.Analyze) Parser.parseStatement("analyze")).table()).isNull();
        assertThat(((Statement.Analyze) Parser.parseStatement("analyze main.t;")).table().name()).isEqualTo("t");
    }
}
