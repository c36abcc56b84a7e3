package io.derive.engine.sql;

import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Expressions: binary operators by precedence climbing over {@link #PRECEDENCE}, then unary
 * operators, postfix tests ({@code is null}, {@code between}, {@code in}, {@code like}), literals,
 * parameters, column references, function calls, {@code cast}, {@code case} and subqueries.
 */
final class ExpressionParser {

    /** SQLite's binary operator precedence, loosest first. */
    private static final Map<String, Integer> PRECEDENCE = Map.ofEntries(
            Map.entry("or", 1), Map.entry("and", 2),
            Map.entry("=", 4), Map.entry("==", 4), Map.entry("!=", 4), Map.entry("<>", 4),
            Map.entry("is", 4), Map.entry("like", 4), Map.entry("glob", 4),
            Map.entry("<", 5), Map.entry("<=", 5), Map.entry(">", 5), Map.entry(">=", 5),
            Map.entry("&", 6), Map.entry("|", 6), Map.entry("<<", 6), Map.entry(">>", 6),
            Map.entry("+", 7), Map.entry("-", 7),
            Map.entry("*", 8), Map.entry("/", 8), Map.entry("%", 8),
            Map.entry("||", 9));
    private static final int NOT_PRECEDENCE = 3;
    private static final int COMPARISON_PRECEDENCE = 4;

    private final TokenCursor tokens;
    /** Parses the subqueries an expression may hold. */
    private final QueryParser queries;
    private int positionalParameters;

    ExpressionParser(TokenCursor tokens, QueryParser queries) {
        this.tokens = tokens;
        this.queries = queries;
    }

    Expr expr() {
        tokens.descend();
        try {
            return binary(1);
        } finally {
            tokens.ascend();
        }
    }

    List<Expr> exprList() {
        List<Expr> list = new ArrayList<>();
        do {
            list.add(expr());
        } while (tokens.acceptOperator(","));
        return list;
    }

    private Expr binary(int minPrecedence) {
        Expr left = minPrecedence <= NOT_PRECEDENCE && tokens.peek().isWord("not") ? notExpr() : unary();
        while (true) {
            Token t = tokens.peek();
            if (COMPARISON_PRECEDENCE >= minPrecedence && postfixStart(t)) {
                left = postfix(left);
                continue;
            }
            String op = binaryOperator(t);
            Integer precedence = op == null ? null : PRECEDENCE.get(op);
            if (precedence == null || precedence < minPrecedence) {
                return left;
            }
            tokens.next();
            if (op.equals("is")) {
                boolean not = tokens.acceptWord("not");
                if (tokens.acceptWord("distinct")) {
                    tokens.expectWord("from");
                    op = not ? "is" : "isnot";
                } else {
                    op = not ? "isnot" : "is";
                }
            }
            Expr right = binary(precedence + 1);
            left = op.equals("like") && tokens.acceptWord("escape")
                    ? likeWithEscape(left, right)
                    : new Expr.Binary(normalize(op), left, right, left.span().to(right.span()));
        }
    }

    private Expr notExpr() {
        Token first = tokens.next();
        tokens.descend();
        try {
            Expr operand = binary(NOT_PRECEDENCE);
            return new Expr.Unary("not", operand, first.span().to(operand.span()));
        } finally {
            tokens.ascend();
        }
    }

    private boolean postfixStart(Token t) {
        if (t.isWord("isnull") || t.isWord("notnull") || t.isWord("between") || t.isWord("in")) {
            return true;
        }
        if (t.isWord("not")) {
            Token n = tokens.peek(1);
            return n.isWord("null") || n.isWord("between") || n.isWord("in") || n.isWord("like") || n.isWord("glob");
        }
        return t.isWord("is") && (tokens.peek(1).isWord("null")
                || (tokens.peek(1).isWord("not") && tokens.peek(2).isWord("null")));
    }

    private Expr postfix(Expr left) {
        if (tokens.acceptWord("isnull")) {
            return new Expr.IsNull(left, false, left.span().to(tokens.previous().span()));
        }
        if (tokens.acceptWord("notnull")) {
            return new Expr.IsNull(left, true, left.span().to(tokens.previous().span()));
        }
        if (tokens.acceptWord("is")) {
            boolean negated = tokens.acceptWord("not");
            tokens.expectWord("null");
            return new Expr.IsNull(left, negated, left.span().to(tokens.previous().span()));
        }
        boolean negated = tokens.acceptWord("not");
        if (negated && tokens.acceptWord("null")) {
            return new Expr.IsNull(left, true, left.span().to(tokens.previous().span()));
        }
        if (tokens.acceptWord("between")) {
            Expr low = binary(COMPARISON_PRECEDENCE + 1);
            tokens.expectWord("and");
            Expr high = binary(COMPARISON_PRECEDENCE + 1);
            return new Expr.Between(left, low, high, negated, left.span().to(high.span()));
        }
        if (tokens.acceptWord("in")) {
            if (!tokens.peek().isOperator("(")) {
                Token tableStart = tokens.peek();
                QualifiedName table = tokens.qualifiedName();
                Select all = new Select(List.of(), false, false, List.of(new Select.Star(null, table.span())),
                        new Select.NamedTable(table, null, table.span()), null, List.of(), null, List.of(), List.of(),
                        null, null, tokens.spanFrom(tableStart));
                return new Expr.InQuery(left, all, negated, left.span().to(tokens.previous().span()));
            }
            tokens.expectOperator("(");
            if (tokens.startsQuery()) {
                Select query = queries.select();
                tokens.expectOperator(")");
                return new Expr.InQuery(left, query, negated, left.span().to(tokens.previous().span()));
            }
            List<Expr> items = tokens.peek().isOperator(")") ? List.of() : exprList();
            tokens.expectOperator(")");
            return new Expr.InList(left, items, negated, left.span().to(tokens.previous().span()));
        }
        String op = tokens.acceptWord("like") ? "like" : tokens.expectWord("glob").text().toLowerCase(Locale.ROOT);
        Expr right = binary(COMPARISON_PRECEDENCE + 1);
        Expr match = op.equals("like") && tokens.acceptWord("escape")
                ? likeWithEscape(left, right)
                : new Expr.Binary(op, left, right, left.span().to(right.span()));
        return new Expr.Unary("not", match, match.span());
    }

    /** {@code x like pattern escape e}, read as SQLite's function form {@code like(pattern, x, e)}. */
    private Expr likeWithEscape(Expr left, Expr pattern) {
        Expr escape = binary(COMPARISON_PRECEDENCE + 1);
        return new Expr.FunctionCall("like", List.of(pattern, left, escape), false, false, left.span().to(escape.span()));
    }

    private static String binaryOperator(Token t) {
        if (t.kind() == TokenKind.OPERATOR) {
            return t.text();
        }
        if (t.kind() == TokenKind.WORD) {
            String word = t.text().toLowerCase(Locale.ROOT);
            return PRECEDENCE.containsKey(word) ? word : null;
        }
        return null;
    }

    private static String normalize(String op) {
        return switch (op) {
            case "==" -> "=";
            case "<>" -> "!=";
            default -> op;
        };
    }

    Expr unary() {
        Token t = tokens.peek();
        if (t.isOperator("-") || t.isOperator("+") || t.isOperator("~")) {
            tokens.next();
            tokens.descend();
            Expr operand;
            try {
                operand = unary();
            } finally {
                tokens.ascend();
            }
            if (t.text().equals("-") && operand instanceof Expr.Literal lit && lit.value() instanceof Number) {
                // 9223372036854775808 alone is too big for an integer, but its negation is the smallest one.
                Object value = tokens.text(operand.span()).equals("9223372036854775808") ? (Object) Long.MIN_VALUE
                        : negate(lit.value());
                return new Expr.Literal(value, t.span().to(operand.span()));
            }
            return new Expr.Unary(t.text(), operand, t.span().to(operand.span()));
        }
        Expr e = primary();
        while (tokens.acceptWord("collate")) {
            String collation = tokens.identifier("a collation name");
            e = new Expr.Collate(e, collation, e.span().to(tokens.previous().span()));
        }
        return e;
    }

    private static Object negate(Object value) {
        if (value instanceof Long l) {
            return -l;
        }
        return -(Double) value;
    }

    Expr primary() {
        int mark = tokens.mark();
        Token t = tokens.next();
        switch (t.kind()) {
            case INTEGER:
                return new Expr.Literal(integerValue(t), t.span());
            case REAL:
                return new Expr.Literal(Double.parseDouble(t.text()), t.span());
            case STRING:
                return new Expr.Literal(t.text(), t.span());
            case BLOB:
                return new Expr.Literal(java.util.HexFormat.of().parseHex(t.text()), t.span());
            case PARAMETER:
                return parameter(t);
            case QUOTED_IDENTIFIER:
                return columnRef(t);
            case OPERATOR:
                if (t.isOperator("(")) {
                    if (tokens.startsQuery()) {
                        Select query = queries.select();
                        tokens.expectOperator(")");
                        return new Expr.ScalarSubquery(query, tokens.spanFrom(t));
                    }
                    Expr inner = expr();
                    tokens.expectOperator(")");
                    return inner;
                }
                break;
            case WORD:
                return wordExpr(t, mark);
            default:
                break;
        }
        tokens.reset(mark);
        throw tokens.expected("an expression");
    }

    /** The expression a word {@code t} starts, read from {@code mark}. */
    private Expr wordExpr(Token t, int mark) {
        String word = t.text().toLowerCase(Locale.ROOT);
        switch (word) {
            case "null":
                return new Expr.Literal(null, t.span());
            case "true":
                return new Expr.Literal(1L, t.span());
            case "false":
                return new Expr.Literal(0L, t.span());
            case "current_date", "current_time", "current_timestamp":
                // SQL's niladic datetime keywords: calls of the functions of the same name.
                if (!tokens.peek().isOperator("(")) {
                    return new Expr.FunctionCall(word, List.of(), false, false, t.span());
                }
                break;
            case "cast": {
                tokens.expectOperator("(");
                Expr operand = expr();
                tokens.expectWord("as");
                String type = tokens.identifier("a type name");
                if (tokens.acceptOperator("(")) {
                    tokens.expectNumber();
                    if (tokens.acceptOperator(",")) {
                        tokens.expectNumber();
                    }
                    tokens.expectOperator(")");
                }
                tokens.expectOperator(")");
                return new Expr.Cast(operand, type, tokens.spanFrom(t));
            }
            case "case":
                return caseExpr(t);
            case "exists": {
                tokens.expectOperator("(");
                Select query = queries.select();
                tokens.expectOperator(")");
                return new Expr.Exists(query, false, tokens.spanFrom(t));
            }
            default:
                break;
        }
        if (TokenCursor.isReserved(word) && !tokens.peek().isOperator("(")) {
            tokens.reset(mark);
            throw tokens.expected("an expression");
        }
        if (tokens.peek().isOperator("(")) {
            tokens.next();
            boolean distinct = tokens.acceptWord("distinct");
            // ALL is the default quantifier, spelled out; neither quantifier admits f(*).
            boolean quantified = distinct || tokens.acceptWord("all");
            if (!quantified && tokens.acceptOperator("*")) {
                tokens.expectOperator(")");
                return new Expr.FunctionCall(word, List.of(), false, true, tokens.spanFrom(t));
            }
            List<Expr> args = tokens.peek().isOperator(")") ? List.of() : exprList();
            tokens.expectOperator(")");
            return new Expr.FunctionCall(word, args, distinct, false, tokens.spanFrom(t));
        }
        return columnRef(t);
    }

    /** A case expression nests through more parser and binder frames per level than an operator. */
    private static final int CASE_WEIGHT = 4;

    private Expr caseExpr(Token first) {
        tokens.descend(CASE_WEIGHT);
        try {
            return caseBody(first);
        } finally {
            tokens.ascend(CASE_WEIGHT);
        }
    }

    private Expr caseBody(Token first) {
        Expr operand = tokens.peek().isWord("when") ? null : expr();
        List<Expr.When> whens = new ArrayList<>();
        while (tokens.acceptWord("when")) {
            Expr condition = expr();
            tokens.expectWord("then");
            whens.add(new Expr.When(condition, expr()));
        }
        if (whens.isEmpty()) {
            throw tokens.expected("'when'");
        }
        Expr otherwise = tokens.acceptWord("else") ? expr() : null;
        tokens.expectWord("end");
        return new Expr.Case(operand, whens, otherwise, tokens.spanFrom(first));
    }

    private Expr columnRef(Token first) {
        if (tokens.acceptOperator(".")) {
            String column = tokens.identifier("a column name");
            return new Expr.ColumnRef(first.text(), column, tokens.spanFrom(first));
        }
        return new Expr.ColumnRef(null, first.text(), first.span());
    }

    private Expr parameter(Token t) {
        String text = t.text();
        if (text.equals("?")) {
            return new Expr.Parameter(++positionalParameters, null, t.span());
        }
        if (text.startsWith("?")) {
            int index = Integer.parseInt(text.substring(1));
            if (index < 1) {
                throw TokenCursor.error("parameter index must be at least 1", t);
            }
            positionalParameters = Math.max(positionalParameters, index);
            return new Expr.Parameter(index, null, t.span());
        }
        return new Expr.Parameter(0, text.substring(1), t.span());
    }

    private Object integerValue(Token t) {
        String text = t.text();
        try {
            if (text.startsWith("0x") || text.startsWith("0X")) {
                return Long.parseUnsignedLong(text.substring(2), 16);
            }
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            // SQLite reads an integer literal too large for 64 bits as a real
            return Double.parseDouble(text);
        }
    }
}
