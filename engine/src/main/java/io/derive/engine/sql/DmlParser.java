package io.derive.engine.sql;

import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.IndexHint;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Data changes: {@code insert} (with its conflict action and upsert clause), {@code update} and
 * {@code delete}, each with an optional {@code returning} list.
 */
final class DmlParser {

    private final TokenCursor tokens;
    private final ExpressionParser expressions;
    private final QueryParser queries;

    DmlParser(TokenCursor tokens, QueryParser queries) {
        this.tokens = tokens;
        this.expressions = queries.expressions();
        this.queries = queries;
    }

    /** {@code or abort|fail|ignore|replace|rollback} after {@code insert} or {@code update}; null when absent. */
    Statement.ConflictAction conflictAction() {
        if (!tokens.acceptWord("or")) {
            return null;
        }
        for (Statement.ConflictAction action : Statement.ConflictAction.values()) {
            if (tokens.acceptWord(action.name().toLowerCase(Locale.ROOT))) {
                return action;
            }
        }
        throw tokens.expected("'abort', 'fail', 'ignore', 'replace' or 'rollback'");
    }

    /** {@code returning item, …}; empty when there is no such clause. */
    private List<Select.SelectItem> returning() {
        List<Select.SelectItem> items = new ArrayList<>();
        if (tokens.acceptWord("returning")) {
            do {
                items.add(queries.selectItem());
            } while (tokens.acceptOperator(","));
        }
        return items;
    }

    /** After {@code insert [or action]} or {@code replace}. */
    Statement insert(Token first, Statement.ConflictAction onConflict) {
        tokens.expectWord("into");
        QualifiedName table = tokens.qualifiedName();
        List<String> columns = new ArrayList<>();
        if (tokens.acceptOperator("(")) {
            columns = tokens.identifierList();
            tokens.expectOperator(")");
        }
        List<List<Expr>> rows = null;
        Select select = null;
        if (tokens.acceptWord("default")) {
            tokens.expectWord("values");
        } else if (tokens.acceptWord("values")) {
            rows = new ArrayList<>();
            do {
                tokens.expectOperator("(");
                rows.add(expressions.exprList());
                tokens.expectOperator(")");
            } while (tokens.acceptOperator(","));
        } else if (tokens.startsQuery()) {
            select = queries.select();
        } else {
            throw tokens.expected("'values', 'select' or 'default values'");
        }
        Statement.Upsert upsert = tokens.peek().isWord("on") ? upsert() : null;
        List<Select.SelectItem> returning = returning();
        return new Statement.Insert(table, columns, rows, select, onConflict, upsert, returning,
                tokens.spanFrom(first));
    }

    /** {@code on conflict [(c, …) [where …]] do nothing | do update set … [where …]}. */
    private Statement.Upsert upsert() {
        Token first = tokens.expectWord("on");
        tokens.expectWord("conflict");
        List<Statement.KeyColumn> target = new ArrayList<>();
        Expr targetWhere = null;
        if (tokens.peek().isOperator("(")) {
            target = tokens.keyColumns();
            targetWhere = tokens.acceptWord("where") ? expressions.expr() : null;
        }
        tokens.expectWord("do");
        if (tokens.acceptWord("nothing")) {
            return new Statement.Upsert(target, targetWhere, List.of(), null, tokens.spanFrom(first));
        }
        tokens.expectWord("update");
        tokens.expectWord("set");
        List<Statement.Assignment> assignments = assignments();
        Expr where = tokens.acceptWord("where") ? expressions.expr() : null;
        return new Statement.Upsert(target, targetWhere, assignments, where, tokens.spanFrom(first));
    }

    private List<Statement.Assignment> assignments() {
        List<Statement.Assignment> assignments = new ArrayList<>();
        do {
            Token column = tokens.peek();
            String name = tokens.identifier("a column name");
            tokens.expectOperator("=");
            assignments.add(new Statement.Assignment(name, expressions.expr(), tokens.spanFrom(column)));
        } while (tokens.acceptOperator(","));
        return assignments;
    }

    /** After {@code update}. */
    Statement update(Token first) {
        Statement.ConflictAction onConflict = conflictAction();
        QualifiedName table = tokens.qualifiedName();
        IndexHint hint = queries.indexHint();
        tokens.expectWord("set");
        List<Statement.Assignment> assignments = assignments();
        Expr where = tokens.acceptWord("where") ? expressions.expr() : null;
        List<Select.SelectItem> returning = returning();
        return new Statement.Update(table, hint, assignments, where, onConflict, returning, tokens.spanFrom(first));
    }

    /** After {@code delete}. */
    Statement delete(Token first) {
        tokens.expectWord("from");
        QualifiedName table = tokens.qualifiedName();
        IndexHint hint = queries.indexHint();
        Expr where = tokens.acceptWord("where") ? expressions.expr() : null;
        List<Select.SelectItem> returning = returning();
        return new Statement.Delete(table, hint, where, returning, tokens.spanFrom(first));
    }
}
