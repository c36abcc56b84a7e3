package io.derive.engine.sql;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Recursive-descent parser for Derive's dialect. Binary operators are parsed by precedence
 * climbing over {@link #PRECEDENCE}; a syntax error names what was expected and where.
 */
public final class Parser {

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

    /** Words that end an expression or select item, so they are never taken as an implicit alias. */
    private static final Set<String> RESERVED = Set.of(
            "select", "from", "where", "group", "having", "order", "limit", "offset", "union",
            "intersect", "except", "join", "inner", "left", "right", "full", "cross", "on", "using",
            "as", "and", "or", "not", "is", "in", "like", "glob", "between", "case", "when", "then",
            "else", "end", "null", "values", "set", "into", "collate", "asc", "desc", "nulls");

    private final String sql;
    private final List<Token> tokens;
    private int pos;
    private int positionalParameters;

    private Parser(String sql) {
        this.sql = sql;
        this.tokens = Lexer.tokenize(sql);
    }

    /**
     * Parses every statement of a script, separated by semicolons.
     *
     * @throws DeriveException ({@link DeriveException#SYNTAX}) at the first syntax error
     */
    public static List<Statement> parseScript(String sql) {
        Parser parser = new Parser(sql);
        List<Statement> statements = new ArrayList<>();
        while (true) {
            while (parser.acceptOperator(";")) {
                // empty statements are allowed between semicolons
            }
            if (parser.peek().kind() == TokenKind.EOF) {
                return statements;
            }
            statements.add(parser.statement());
            if (parser.peek().kind() != TokenKind.EOF) {
                parser.expectOperator(";");
            }
        }
    }

    /**
     * The text of each statement of a script, in order, without the separating semicolons; a
     * tool runs them one by one through {@link io.derive.engine.api.Session#execute}.
     *
     * @throws DeriveException at the first syntax error of the script
     */
    public static List<String> splitScript(String sql) {
        List<String> texts = new ArrayList<>();
        for (Statement statement : parseScript(sql)) {
            texts.add(statement.span().text(sql));
        }
        return texts;
    }

    /** Parses exactly one statement (a trailing semicolon is allowed). */
    public static Statement parseStatement(String sql) {
        List<Statement> statements = parseScript(sql);
        if (statements.size() != 1) {
            throw new DeriveException(DeriveException.SYNTAX, statements.isEmpty()
                    ? "no statement to run" : "expected one statement but found " + statements.size());
        }
        return statements.get(0);
    }

    /** Parses a query alone, as a materialized view's stored body is. */
    public static Select parseQuery(String sql) {
        Statement statement = parseStatement(sql);
        if (statement instanceof Statement.Query query) {
            return query.select();
        }
        throw new DeriveException(DeriveException.SYNTAX, "expected a select statement");
    }

    private Statement statement() {
        Token first = peek();
        if (acceptWord("create")) {
            return create(first);
        }
        if (acceptWord("drop")) {
            return drop(first);
        }
        if (acceptWord("refresh")) {
            expectWord("materialized");
            expectWord("view");
            QualifiedName name = qualifiedName();
            return new Statement.RefreshMaterializedView(name, spanFrom(first));
        }
        if (acceptWord("insert")) {
            return insert(first);
        }
        if (acceptWord("update")) {
            return update(first);
        }
        if (acceptWord("delete")) {
            expectWord("from");
            QualifiedName table = qualifiedName();
            Expr where = acceptWord("where") ? expr() : null;
            return new Statement.Delete(table, where, spanFrom(first));
        }
        if (peek().isWord("select")) {
            Select select = select();
            return new Statement.Query(select, select.span());
        }
        if (acceptWord("begin")) {
            acceptWord("transaction");
            return new Statement.Begin(spanFrom(first));
        }
        if (acceptWord("commit") || acceptWord("end")) {
            acceptWord("transaction");
            return new Statement.Commit(spanFrom(first));
        }
        if (acceptWord("rollback")) {
            acceptWord("transaction");
            return new Statement.Rollback(spanFrom(first));
        }
        throw expected("a statement");
    }

    private Statement create(Token first) {
        if (acceptWord("table")) {
            return createTable(first);
        }
        if (acceptWord("materialized")) {
            expectWord("view");
            boolean ifNotExists = ifNotExists();
            QualifiedName name = qualifiedName();
            List<String> columns = new ArrayList<>();
            if (acceptOperator("(")) {
                do {
                    columns.add(identifier("a column name"));
                } while (acceptOperator(","));
                expectOperator(")");
            }
            Statement.HostClause host = hostClause();
            expectWord("as");
            int bodyStart = peek().span().offset();
            Select body = select();
            String bodySql = sql.substring(bodyStart, previous().span().offset() + previous().span().length());
            return new Statement.CreateMaterializedView(name, ifNotExists, columns, host, body, bodySql, spanFrom(first));
        }
        throw expected("'table' or 'materialized view'");
    }

    private Statement createTable(Token first) {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = qualifiedName();
        expectOperator("(");
        List<Statement.ColumnDef> columns = new ArrayList<>();
        List<Statement.KeyColumn> primaryKey = new ArrayList<>();
        do {
            if (peek().isWord("primary") || peek().isWord("constraint")) {
                if (acceptWord("constraint")) {
                    identifier("a constraint name");
                }
                Token pk = expectWord("primary");
                expectWord("key");
                if (!primaryKey.isEmpty()) {
                    throw error("table " + name + " has more than one primary key", pk);
                }
                expectOperator("(");
                do {
                    Token column = peek();
                    String columnName = identifier("a column name");
                    boolean descending = direction();
                    primaryKey.add(new Statement.KeyColumn(columnName, descending, spanFrom(column)));
                } while (acceptOperator(","));
                expectOperator(")");
            } else {
                columns.add(columnDef());
            }
        } while (acceptOperator(","));
        expectOperator(")");
        Statement.HostClause host = hostClause();
        return new Statement.CreateTable(name, ifNotExists, columns, primaryKey, host, spanFrom(first));
    }

    private Statement.ColumnDef columnDef() {
        Token first = peek();
        String name = identifier("a column name");
        String typeName = null;
        if (peek().kind() == TokenKind.WORD && !isColumnConstraintStart(peek())) {
            typeName = next().text();
            if (acceptOperator("(")) {
                expectNumber();
                if (acceptOperator(",")) {
                    expectNumber();
                }
                expectOperator(")");
            }
        }
        boolean notNull = false;
        boolean primaryKey = false;
        boolean descending = false;
        String collation = null;
        Expr defaultValue = null;
        while (true) {
            if (acceptWord("constraint")) {
                identifier("a constraint name");
            }
            if (acceptWord("not")) {
                expectWord("null");
                notNull = true;
            } else if (acceptWord("null")) {
                notNull = false;
            } else if (acceptWord("primary")) {
                expectWord("key");
                primaryKey = true;
                descending = direction();
            } else if (acceptWord("collate")) {
                collation = identifier("a collation name");
            } else if (acceptWord("default")) {
                defaultValue = acceptOperator("(") ? parenthesizedRest() : primary();
            } else {
                break;
            }
        }
        return new Statement.ColumnDef(name, typeName, notNull, primaryKey, descending, collation, defaultValue, spanFrom(first));
    }

    private Expr parenthesizedRest() {
        Expr e = expr();
        expectOperator(")");
        return e;
    }

    private static boolean isColumnConstraintStart(Token t) {
        return t.isWord("not") || t.isWord("null") || t.isWord("primary") || t.isWord("collate")
                || t.isWord("default") || t.isWord("constraint") || t.isWord("unique")
                || t.isWord("check") || t.isWord("references");
    }

    private Statement drop(Token first) {
        Statement.ObjectKind kind;
        if (acceptWord("table")) {
            kind = Statement.ObjectKind.TABLE;
        } else if (acceptWord("materialized")) {
            expectWord("view");
            kind = Statement.ObjectKind.MATERIALIZED_VIEW;
        } else {
            throw expected("'table' or 'materialized view'");
        }
        boolean ifExists = false;
        if (acceptWord("if")) {
            expectWord("exists");
            ifExists = true;
        }
        QualifiedName name = qualifiedName();
        return new Statement.Drop(kind, name, ifExists, spanFrom(first));
    }

    private Statement insert(Token first) {
        expectWord("into");
        QualifiedName table = qualifiedName();
        List<String> columns = new ArrayList<>();
        if (acceptOperator("(")) {
            do {
                columns.add(identifier("a column name"));
            } while (acceptOperator(","));
            expectOperator(")");
        }
        if (acceptWord("values")) {
            List<List<Expr>> rows = new ArrayList<>();
            do {
                expectOperator("(");
                rows.add(exprList());
                expectOperator(")");
            } while (acceptOperator(","));
            return new Statement.Insert(table, columns, rows, null, spanFrom(first));
        }
        if (peek().isWord("select")) {
            return new Statement.Insert(table, columns, null, select(), spanFrom(first));
        }
        throw expected("'values' or 'select'");
    }

    private Statement update(Token first) {
        QualifiedName table = qualifiedName();
        expectWord("set");
        List<Statement.Assignment> assignments = new ArrayList<>();
        do {
            Token column = peek();
            String name = identifier("a column name");
            expectOperator("=");
            assignments.add(new Statement.Assignment(name, expr(), spanFrom(column)));
        } while (acceptOperator(","));
        Expr where = acceptWord("where") ? expr() : null;
        return new Statement.Update(table, assignments, where, spanFrom(first));
    }

    private Select select() {
        Token first = expectWord("select");
        boolean distinct = acceptWord("distinct");
        if (!distinct) {
            acceptWord("all");
        }
        List<Select.SelectItem> items = new ArrayList<>();
        do {
            items.add(selectItem());
        } while (acceptOperator(","));
        Select.TableRef from = acceptWord("from") ? tableRef() : null;
        Expr where = acceptWord("where") ? expr() : null;
        List<Select.OrderTerm> orderBy = new ArrayList<>();
        if (acceptWord("order")) {
            expectWord("by");
            do {
                Token termStart = peek();
                Expr e = expr();
                boolean descending = direction();
                Boolean nullsFirst = null;
                if (acceptWord("nulls")) {
                    if (acceptWord("first")) {
                        nullsFirst = true;
                    } else {
                        expectWord("last");
                        nullsFirst = false;
                    }
                }
                orderBy.add(new Select.OrderTerm(e, descending, nullsFirst, spanFrom(termStart)));
            } while (acceptOperator(","));
        }
        Expr limit = null;
        Expr offset = null;
        if (acceptWord("limit")) {
            limit = expr();
            if (acceptWord("offset")) {
                offset = expr();
            } else if (acceptOperator(",")) {
                // SQLite's "limit offset, count"
                offset = limit;
                limit = expr();
            }
        }
        return new Select(distinct, items, from, where, orderBy, limit, offset, spanFrom(first));
    }

    private Select.SelectItem selectItem() {
        Token first = peek();
        if (acceptOperator("*")) {
            return new Select.Star(null, spanFrom(first));
        }
        if (isIdentifier(peek()) && peek(1).isOperator(".") && peek(2).isOperator("*")) {
            String table = identifier("a table name");
            next();
            next();
            return new Select.Star(table, spanFrom(first));
        }
        Expr e = expr();
        String alias = alias();
        return new Select.Column(e, alias, spanFrom(first));
    }

    private Select.TableRef tableRef() {
        Token first = peek();
        if (isIdentifier(peek()) && peek(1).isOperator("(")) {
            String name = identifier("a table function name");
            next();
            List<Expr> args = peek().isOperator(")") ? List.of() : exprList();
            expectOperator(")");
            return new Select.TableFunction(name.toLowerCase(Locale.ROOT), args, alias(), spanFrom(first));
        }
        QualifiedName name = qualifiedName();
        return new Select.NamedTable(name, alias(), spanFrom(first));
    }

    private String alias() {
        if (acceptWord("as")) {
            return identifier("an alias");
        }
        Token t = peek();
        if (t.kind() == TokenKind.QUOTED_IDENTIFIER
                || (t.kind() == TokenKind.WORD && !RESERVED.contains(t.text().toLowerCase(Locale.ROOT)))) {
            return next().text();
        }
        return null;
    }

    private Statement.HostClause hostClause() {
        Token first = peek();
        if (!acceptWord("using")) {
            return null;
        }
        String module = identifier("a table module name").toLowerCase(Locale.ROOT);
        List<String> args = new ArrayList<>();
        if (acceptOperator("(")) {
            if (!peek().isOperator(")")) {
                do {
                    Token arg = peek();
                    if (arg.kind() == TokenKind.EOF || arg.kind() == TokenKind.OPERATOR) {
                        throw expected("a module argument");
                    }
                    args.add(next().text());
                } while (acceptOperator(","));
            }
            expectOperator(")");
        }
        return new Statement.HostClause(module, args, spanFrom(first));
    }

    private boolean direction() {
        if (acceptWord("desc")) {
            return true;
        }
        acceptWord("asc");
        return false;
    }

    private boolean ifNotExists() {
        if (acceptWord("if")) {
            expectWord("not");
            expectWord("exists");
            return true;
        }
        return false;
    }

    private QualifiedName qualifiedName() {
        Token first = peek();
        String name = identifier("a name");
        if (acceptOperator(".")) {
            String object = identifier("a name");
            return new QualifiedName(name, object, spanFrom(first));
        }
        return new QualifiedName(null, name, spanFrom(first));
    }

    private List<Expr> exprList() {
        List<Expr> list = new ArrayList<>();
        do {
            list.add(expr());
        } while (acceptOperator(","));
        return list;
    }

    // ---- expressions, by precedence climbing

    public Expr expr() {
        return binary(1);
    }

    private Expr binary(int minPrecedence) {
        Expr left = minPrecedence <= NOT_PRECEDENCE && peek().isWord("not") ? notExpr() : unary();
        while (true) {
            Token t = peek();
            if (COMPARISON_PRECEDENCE >= minPrecedence && postfixStart(t)) {
                left = postfix(left);
                continue;
            }
            String op = binaryOperator(t);
            Integer precedence = op == null ? null : PRECEDENCE.get(op);
            if (precedence == null || precedence < minPrecedence) {
                return left;
            }
            next();
            if (op.equals("is")) {
                boolean not = acceptWord("not");
                if (acceptWord("distinct")) {
                    expectWord("from");
                    op = not ? "is" : "isnot";
                } else {
                    op = not ? "isnot" : "is";
                }
            }
            Expr right = binary(precedence + 1);
            left = new Expr.Binary(normalize(op), left, right, left.span().to(right.span()));
        }
    }

    private Expr notExpr() {
        Token first = next();
        Expr operand = binary(NOT_PRECEDENCE);
        return new Expr.Unary("not", operand, first.span().to(operand.span()));
    }

    private boolean postfixStart(Token t) {
        if (t.isWord("isnull") || t.isWord("notnull") || t.isWord("between") || t.isWord("in")) {
            return true;
        }
        if (t.isWord("not")) {
            Token n = peek(1);
            return n.isWord("null") || n.isWord("between") || n.isWord("in") || n.isWord("like") || n.isWord("glob");
        }
        return t.isWord("is") && (peek(1).isWord("null") || (peek(1).isWord("not") && peek(2).isWord("null")));
    }

    private Expr postfix(Expr left) {
        if (acceptWord("isnull")) {
            return new Expr.IsNull(left, false, left.span().to(previous().span()));
        }
        if (acceptWord("notnull")) {
            return new Expr.IsNull(left, true, left.span().to(previous().span()));
        }
        if (acceptWord("is")) {
            boolean negated = acceptWord("not");
            expectWord("null");
            return new Expr.IsNull(left, negated, left.span().to(previous().span()));
        }
        boolean negated = acceptWord("not");
        if (negated && acceptWord("null")) {
            return new Expr.IsNull(left, true, left.span().to(previous().span()));
        }
        if (acceptWord("between")) {
            Expr low = binary(COMPARISON_PRECEDENCE + 1);
            expectWord("and");
            Expr high = binary(COMPARISON_PRECEDENCE + 1);
            return new Expr.Between(left, low, high, negated, left.span().to(high.span()));
        }
        if (acceptWord("in")) {
            expectOperator("(");
            List<Expr> items = peek().isOperator(")") ? List.of() : exprList();
            expectOperator(")");
            return new Expr.InList(left, items, negated, left.span().to(previous().span()));
        }
        String op = acceptWord("like") ? "like" : expectWord("glob").text().toLowerCase(Locale.ROOT);
        Expr right = binary(COMPARISON_PRECEDENCE + 1);
        Expr match = new Expr.Binary(op, left, right, left.span().to(right.span()));
        return new Expr.Unary("not", match, match.span());
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

    private Expr unary() {
        Token t = peek();
        if (t.isOperator("-") || t.isOperator("+") || t.isOperator("~")) {
            next();
            Expr operand = unary();
            if (t.text().equals("-") && operand instanceof Expr.Literal lit && lit.value() instanceof Number) {
                return new Expr.Literal(negate(lit.value()), t.span().to(operand.span()));
            }
            return new Expr.Unary(t.text(), operand, t.span().to(operand.span()));
        }
        Expr e = primary();
        while (acceptWord("collate")) {
            String collation = identifier("a collation name");
            e = new Expr.Collate(e, collation, e.span().to(previous().span()));
        }
        return e;
    }

    private static Object negate(Object value) {
        if (value instanceof Long l) {
            return -l;
        }
        return -(Double) value;
    }

    private Expr primary() {
        int mark = pos;
        Token t = next();
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
                    Expr inner = expr();
                    expectOperator(")");
                    return inner;
                }
                break;
            case WORD:
                return wordExpr(t);
            default:
                break;
        }
        pos = mark;
        throw expected("an expression");
    }

    private Expr wordExpr(Token t) {
        String word = t.text().toLowerCase(Locale.ROOT);
        switch (word) {
            case "null":
                return new Expr.Literal(null, t.span());
            case "true":
                return new Expr.Literal(1L, t.span());
            case "false":
                return new Expr.Literal(0L, t.span());
            case "cast": {
                expectOperator("(");
                Expr operand = expr();
                expectWord("as");
                String type = identifier("a type name");
                if (acceptOperator("(")) {
                    expectNumber();
                    if (acceptOperator(",")) {
                        expectNumber();
                    }
                    expectOperator(")");
                }
                expectOperator(")");
                return new Expr.Cast(operand, type, spanFrom(t));
            }
            case "case":
                return caseExpr(t);
            default:
                break;
        }
        if (RESERVED.contains(word) && !peek().isOperator("(")) {
            pos--;
            throw expected("an expression");
        }
        if (peek().isOperator("(")) {
            next();
            boolean distinct = acceptWord("distinct");
            if (acceptOperator("*")) {
                expectOperator(")");
                return new Expr.FunctionCall(word, List.of(), false, true, spanFrom(t));
            }
            List<Expr> args = peek().isOperator(")") ? List.of() : exprList();
            expectOperator(")");
            return new Expr.FunctionCall(word, args, distinct, false, spanFrom(t));
        }
        return columnRef(t);
    }

    private Expr caseExpr(Token first) {
        Expr operand = peek().isWord("when") ? null : expr();
        List<Expr.When> whens = new ArrayList<>();
        while (acceptWord("when")) {
            Expr condition = expr();
            expectWord("then");
            whens.add(new Expr.When(condition, expr()));
        }
        if (whens.isEmpty()) {
            throw expected("'when'");
        }
        Expr otherwise = acceptWord("else") ? expr() : null;
        expectWord("end");
        return new Expr.Case(operand, whens, otherwise, spanFrom(first));
    }

    private Expr columnRef(Token first) {
        if (acceptOperator(".")) {
            String column = identifier("a column name");
            return new Expr.ColumnRef(first.text(), column, spanFrom(first));
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
                throw error("parameter index must be at least 1", t);
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

    // ---- token helpers

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != TokenKind.EOF) {
            pos++;
        }
        return t;
    }

    private Token previous() {
        return tokens.get(Math.max(0, pos - 1));
    }

    private boolean acceptWord(String word) {
        if (peek().isWord(word)) {
            pos++;
            return true;
        }
        return false;
    }

    private boolean acceptOperator(String op) {
        if (peek().isOperator(op)) {
            pos++;
            return true;
        }
        return false;
    }

    private Token expectWord(String word) {
        if (!peek().isWord(word)) {
            throw expected("'" + word + "'");
        }
        return next();
    }

    private void expectOperator(String op) {
        if (!acceptOperator(op)) {
            throw expected("'" + op + "'");
        }
    }

    private void expectNumber() {
        if (peek().kind() != TokenKind.INTEGER) {
            throw expected("a number");
        }
        next();
    }

    private static boolean isIdentifier(Token t) {
        return t.kind() == TokenKind.QUOTED_IDENTIFIER
                || (t.kind() == TokenKind.WORD && !RESERVED.contains(t.text().toLowerCase(Locale.ROOT)));
    }

    private String identifier(String what) {
        Token t = peek();
        if (t.kind() == TokenKind.QUOTED_IDENTIFIER || t.kind() == TokenKind.WORD) {
            if (t.kind() == TokenKind.WORD && RESERVED.contains(t.text().toLowerCase(Locale.ROOT))) {
                throw expected(what);
            }
            return next().text();
        }
        throw expected(what);
    }

    private SourceSpan spanFrom(Token first) {
        return first.span().to(previous().span());
    }

    private DeriveException expected(String what) {
        Token t = peek();
        return error("syntax error: expected " + what + " but found " + t.describe(), t);
    }

    private static DeriveException error(String message, Token at) {
        return new DeriveException(DeriveException.SYNTAX, message, at.span().line(), at.span().column());
    }
}
