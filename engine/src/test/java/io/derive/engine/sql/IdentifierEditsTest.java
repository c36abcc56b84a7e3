package io.derive.engine.sql;

import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdentifierEditsTest {

    @Test
    void onlyTheIdentifierOfTheSpanChangesAndEverythingElseKeepsItsSpelling() {
        String sql = "select  t . \"G\" /* g */ , 'g' as g\nfrom t -- t.g\nwhere g <> 't.g'";
        Select body = Parser.parseQuery(sql);
        Expr.ColumnRef qualified = (Expr.ColumnRef) ((Select.Column) body.items().get(0)).expr();
        Expr.ColumnRef inWhere = (Expr.ColumnRef) ((Expr.Binary) body.where()).left();
        IdentifierEdits edits = new IdentifierEdits(sql);
        edits.replaceLast(qualified.span(), "grp");
        edits.replaceFirst(qualified.span(), "t2");
        edits.replaceLast(inWhere.span(), "grp");
        edits.replaceLast(((Select.NamedTable) body.from()).name().span(), "t2");
        assertThat(edits.result()).isEqualTo("select  t2 . grp /* g */ , 'g' as g\nfrom t2 -- t.g\nwhere grp <> 't.g'");
    }

    @Test
    void aTokenReplacedTwiceWithTheSameTextIsReplacedOnce() {
        String sql = "select g from t";
        Expr.ColumnRef g = (Expr.ColumnRef) ((Select.Column) Parser.parseQuery(sql).items().get(0)).expr();
        IdentifierEdits edits = new IdentifierEdits(sql);
        edits.replaceLast(g.span(), "\"group name\"");
        edits.replaceLast(g.span(), "\"group name\"");
        assertThat(edits.result()).isEqualTo("select \"group name\" from t");
        assertThatThrownBy(() -> edits.replaceLast(g.span(), "other")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void noEditLeavesTheTextAsItIs() {
        IdentifierEdits edits = new IdentifierEdits("select 1");
        assertThat(edits.isEmpty()).isTrue();
        assertThat(edits.result()).isEqualTo("select 1");
    }

    @Test
    void aWordThatReadsAsAKeywordIsKnownAsOne() {
        assertThat(Parser.readsAsKeyword("ORDER")).isTrue();
        assertThat(Parser.readsAsKeyword("true")).isTrue();
        assertThat(Parser.readsAsKeyword("grp")).isFalse();
    }
}
