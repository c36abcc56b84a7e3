package io.derive.engine.sql;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Statement;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParserTest {

    @Test
    void everyNodeKnowsWhereItIs() {
        String sql = """
                select a,
                       b + 1 as c
                from t""";
        Statement.Query q = (Statement.Query) Parser.parseStatement(sql);
        var item = (io.derive.engine.sql.ast.Select.Column) q.select().items().get(1);
        assertThat(item.expr().span().line()).isEqualTo(2);
        assertThat(item.expr().span().column()).isEqualTo(8);
        assertThat(item.expr().span().text(sql)).isEqualTo("b + 1");
    }

    @Test
    void multiplicationBindsTighterThanAdditionAndAndTighterThanOr() {
        Statement.Query q = (Statement.Query) Parser.parseStatement("select 1 from t where a or b and c = 1 + 2 * 3");
        Expr.Binary or = (Expr.Binary) q.select().where();
        assertThat(or.operator()).isEqualTo("or");
        Expr.Binary and = (Expr.Binary) or.right();
        assertThat(and.operator()).isEqualTo("and");
        Expr.Binary eq = (Expr.Binary) and.right();
        Expr.Binary plus = (Expr.Binary) eq.right();
        assertThat(plus.operator()).isEqualTo("+");
        assertThat(((Expr.Binary) plus.right()).operator()).isEqualTo("*");
    }

    @Test
    void materializedViewKeepsItsBodyText() {
        Statement.CreateMaterializedView mv = (Statement.CreateMaterializedView) Parser.parseStatement(
                "create materialized view if not exists v (x, y) using memory as select k, v from t where v > 0");
        assertThat(mv.bodySql()).isEqualTo("select k, v from t where v > 0");
        assertThat(mv.columnNames()).containsExactly("x", "y");
        assertThat(mv.host().module()).isEqualTo("memory");
        assertThat(mv.ifNotExists()).isTrue();
    }

    @Test
    void aScriptSplitsIntoStatementTexts() {
        assertThat(Parser.splitScript("create table t (k int primary key);\n-- note\ninsert into t values (';');"))
                .containsExactly("create table t (k int primary key)", "insert into t values (';')");
    }

    @Test
    void positionalParametersAreNumberedInOrder() {
        Statement.Insert insert = (Statement.Insert) Parser.parseStatement("insert into t values (?, ?5, ?, :name)");
        var values = insert.rows().get(0);
        assertThat(((Expr.Parameter) values.get(0)).index()).isEqualTo(1);
        assertThat(((Expr.Parameter) values.get(1)).index()).isEqualTo(5);
        assertThat(((Expr.Parameter) values.get(2)).index()).isEqualTo(6);
        assertThat(((Expr.Parameter) values.get(3)).name()).isEqualTo("name");
    }

    @Test
    void anUnterminatedStringIsSitedAtItsStart() {
        assertThatThrownBy(() -> Parser.parseStatement("select\n  'abc"))
                .isInstanceOf(DeriveException.class)
                .hasMessage("unterminated string at 2:3");
    }

    @Test
    void aMissingParenthesisSaysWhatWasExpected() {
        assertThatThrownBy(() -> Parser.parseStatement("create table t (k integer primary key"))
                .hasMessage("syntax error: expected ')' but found end of input at 1:38");
    }

    @Test
    void anUnknownStatementIsASyntaxError() {
        assertThatThrownBy(() -> Parser.parseStatement("frobnicate t"))
                .hasMessage("syntax error: expected a statement but found 'frobnicate' at 1:1");
    }
}
