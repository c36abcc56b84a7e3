package io.derive.engine.sql;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Recursive-descent parser for Derive's dialect; a syntax error names what was expected and
 * where. This class reads which statement starts at the cursor and parses the small ones
 * (transactions, savepoints, pragma, explain) itself; queries, expressions, schema statements
 * and data changes each have their own parser over the same {@link TokenCursor}.
 */
public final class Parser {

    private final TokenCursor tokens;
    private final QueryParser queries;
    private final DdlParser ddl;
    private final DmlParser dml;

    private Parser(String sql) {
        this.tokens = new TokenCursor(sql);
        this.queries = new QueryParser(tokens);
        this.ddl = new DdlParser(tokens, queries);
        this.dml = new DmlParser(tokens, queries);
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
            while (parser.tokens.acceptOperator(";")) {
                // empty statements are allowed between semicolons
            }
            if (parser.tokens.peek().kind() == TokenKind.EOF) {
                return statements;
            }
            statements.add(parser.statement());
            if (parser.tokens.peek().kind() != TokenKind.EOF) {
                parser.tokens.expectOperator(";");
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

    /**
     * Whether a bare word spelled as {@code word} would read as a keyword (or a literal) where a
     * name is expected, so that a name spelled so must be written quoted.
     */
    public static boolean readsAsKeyword(String word) {
        return TokenCursor.readsAsKeyword(word);
    }

    /** Parses a query alone, as a materialized view's stored body is. */
    public static Select parseQuery(String sql) {
        Statement statement = parseStatement(sql);
        if (statement instanceof Statement.Query query) {
            return query.select();
        }
        throw new DeriveException(DeriveException.SYNTAX, "expected a select statement");
    }

    /**
     * Parses an expression alone, as a stored CHECK condition is re-read from its own text (its
     * spans then point into {@code sql}).
     */
    public static Expr parseExpression(String sql) {
        Parser parser = new Parser(sql);
        Expr expr = parser.queries.expressions().expr();
        if (parser.tokens.peek().kind() != TokenKind.EOF) {
            throw parser.tokens.expected("the end of the expression");
        }
        return expr;
    }

    private Statement statement() {
        Token first = tokens.peek();
        if (tokens.acceptWord("create")) {
            return ddl.create(first);
        }
        if (tokens.acceptWord("drop")) {
            return ddl.drop(first);
        }
        if (tokens.acceptWord("refresh")) {
            tokens.expectWord("materialized");
            tokens.expectWord("view");
            QualifiedName name = tokens.qualifiedName();
            return new Statement.RefreshMaterializedView(name, ddl.runStep(), tokens.spanFrom(first));
        }
        if (tokens.acceptWord("rehydrate")) {
            tokens.expectWord("materialized");
            tokens.expectWord("view");
            QualifiedName name = tokens.qualifiedName();
            return new Statement.RehydrateMaterializedView(name, tokens.spanFrom(first));
        }
        if (tokens.acceptWord("verify")) {
            tokens.expectWord("materialized");
            tokens.expectWord("view");
            QualifiedName name = tokens.qualifiedName();
            boolean repair = tokens.acceptWord("repair");
            Expr where = tokens.acceptWord("where") ? queries.expressions().expr() : null;
            return new Statement.VerifyMaterializedView(name, repair, where, tokens.spanFrom(first));
        }
        if (tokens.acceptWord("insert")) {
            return dml.insert(first, dml.conflictAction());
        }
        if (tokens.acceptWord("replace")) {
            return dml.insert(first, Statement.ConflictAction.REPLACE);
        }
        if (tokens.acceptWord("update")) {
            return dml.update(first);
        }
        if (tokens.acceptWord("delete")) {
            return dml.delete(first);
        }
        if (tokens.acceptWord("pragma")) {
            return pragma(first);
        }
        if (tokens.startsQuery()) {
            Select select = queries.select();
            return new Statement.Query(select, select.span());
        }
        if (tokens.acceptWord("explain")) {
            // SQLite's "explain query plan" shows the same plan as "explain" here.
            if (tokens.acceptWord("query")) {
                tokens.expectWord("plan");
            }
            Statement inner = statement();
            return new Statement.Explain(inner, tokens.spanFrom(first));
        }
        if (tokens.acceptWord("begin")) {
            tokens.acceptWord("transaction");
            return new Statement.Begin(tokens.spanFrom(first));
        }
        if (tokens.acceptWord("commit") || tokens.acceptWord("end")) {
            tokens.acceptWord("transaction");
            return new Statement.Commit(tokens.spanFrom(first));
        }
        if (tokens.acceptWord("rollback")) {
            tokens.acceptWord("transaction");
            if (tokens.acceptWord("to")) {
                tokens.acceptWord("savepoint");
                String name = tokens.identifier("a savepoint name");
                return new Statement.RollbackTo(name, tokens.spanFrom(first));
            }
            return new Statement.Rollback(tokens.spanFrom(first));
        }
        if (tokens.acceptWord("savepoint")) {
            String name = tokens.identifier("a savepoint name");
            return new Statement.Savepoint(name, tokens.spanFrom(first));
        }
        if (tokens.acceptWord("release")) {
            tokens.acceptWord("savepoint");
            String name = tokens.identifier("a savepoint name");
            return new Statement.Release(name, tokens.spanFrom(first));
        }
        if (tokens.acceptWord("alter")) {
            if (tokens.acceptWord("materialized")) {
                tokens.expectWord("view");
                return ddl.alterMaterializedView(first);
            }
            if (tokens.acceptWord("view")) {
                return ddl.alterView(first);
            }
            if (!tokens.acceptWord("table")) {
                throw tokens.expected("'table', 'view' or 'materialized view'");
            }
            return ddl.alterTable(first);
        }
        if (tokens.acceptWord("analyze")) {
            QualifiedName table = endsStatement(tokens.peek()) ? null : tokens.qualifiedName();
            return new Statement.Analyze(table, tokens.spanFrom(first));
        }
        throw tokens.expected("a statement");
    }

    private static boolean endsStatement(Token t) {
        return t.kind() == TokenKind.EOF || t.isOperator(";");
    }

    /** {@code pragma name [= value]} or {@code pragma name(value)}, after the keyword. */
    private Statement pragma(Token first) {
        String name = tokens.identifier("a pragma name");
        String value = null;
        if (tokens.acceptOperator("=")) {
            value = pragmaValue();
        } else if (tokens.acceptOperator("(")) {
            value = pragmaValue();
            tokens.expectOperator(")");
        }
        return new Statement.Pragma(name.toLowerCase(Locale.ROOT), value, tokens.spanFrom(first));
    }

    private String pragmaValue() {
        int mark = tokens.mark();
        boolean negative = tokens.acceptOperator("-");
        Token v = tokens.peek();
        if (v.kind() == TokenKind.INTEGER || v.kind() == TokenKind.REAL
                || (!negative && (v.kind() == TokenKind.STRING || v.kind() == TokenKind.WORD
                || v.kind() == TokenKind.QUOTED_IDENTIFIER))) {
            tokens.next();
            return (negative ? "-" : "") + v.text();
        }
        tokens.reset(mark);
        throw tokens.expected("a pragma value");
    }
}
