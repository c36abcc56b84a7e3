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
            "else", "end", "null", "values", "set", "into", "collate", "asc", "desc", "nulls", "natural", "returning",
            "outer", "lateral", "exists", "with");

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
            return insert(first, conflictAction());
        }
        if (acceptWord("replace")) {
            return insert(first, Statement.ConflictAction.REPLACE);
        }
        if (acceptWord("update")) {
            return update(first);
        }
        if (acceptWord("delete")) {
            expectWord("from");
            QualifiedName table = qualifiedName();
            Expr where = acceptWord("where") ? expr() : null;
            List<Select.SelectItem> returning = returning();
            return new Statement.Delete(table, where, returning, spanFrom(first));
        }
        if (acceptWord("pragma")) {
            return pragma(first);
        }
        if (startsQuery()) {
            Select select = select();
            return new Statement.Query(select, select.span());
        }
        if (acceptWord("explain")) {
            // SQLite's "explain query plan" shows the same plan as "explain" here.
            if (acceptWord("query")) {
                expectWord("plan");
            }
            Statement inner = statement();
            return new Statement.Explain(inner, spanFrom(first));
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
            if (acceptWord("to")) {
                acceptWord("savepoint");
                String name = identifier("a savepoint name");
                return new Statement.RollbackTo(name, spanFrom(first));
            }
            return new Statement.Rollback(spanFrom(first));
        }
        if (acceptWord("savepoint")) {
            String name = identifier("a savepoint name");
            return new Statement.Savepoint(name, spanFrom(first));
        }
        if (acceptWord("release")) {
            acceptWord("savepoint");
            String name = identifier("a savepoint name");
            return new Statement.Release(name, spanFrom(first));
        }
        if (acceptWord("alter")) {
            expectWord("table");
            return alterTable(first);
        }
        throw expected("a statement");
    }

    private Statement create(Token first) {
        boolean unique = acceptWord("unique");
        if (acceptWord("index")) {
            return createIndex(first, unique);
        }
        if (unique) {
            throw expected("'index'");
        }
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
        boolean temporary = acceptWord("temp") || acceptWord("temporary");
        if (acceptWord("view")) {
            return createView(first, temporary);
        }
        throw expected(temporary ? "'view'" : "'table', 'view' or 'materialized view'");
    }

    private Statement createView(Token first, boolean temporary) {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = qualifiedName();
        List<String> columns = new ArrayList<>();
        if (acceptOperator("(")) {
            do {
                columns.add(identifier("a column name"));
            } while (acceptOperator(","));
            expectOperator(")");
        }
        expectWord("as");
        int bodyStart = peek().span().offset();
        Select body = select();
        String bodySql = sql.substring(bodyStart, previous().span().offset() + previous().span().length());
        return new Statement.CreateView(name, temporary, ifNotExists, columns, body, bodySql, spanFrom(first));
    }

    /** The action of {@code alter table t …}, the forms of semantics §1. */
    private Statement alterTable(Token first) {
        QualifiedName table = qualifiedName();
        Token actionStart = peek();
        Statement.AlterAction action;
        if (acceptWord("rename")) {
            if (acceptWord("to")) {
                action = new Statement.RenameTable(identifier("a table name"), spanFrom(actionStart));
            } else {
                acceptWord("column");
                String column = identifier("a column name");
                expectWord("to");
                action = new Statement.RenameColumn(column, identifier("a column name"), spanFrom(actionStart));
            }
        } else if (acceptWord("add")) {
            if (peek().isWord("constraint") || peek().isWord("primary") || peek().isWord("unique")
                    || peek().isWord("check") || peek().isWord("foreign")) {
                String name = acceptWord("constraint") ? identifier("a constraint name") : null;
                skipToStatementEnd();
                action = new Statement.ChangeConstraint(true, name, spanFrom(actionStart));
            } else {
                acceptWord("column");
                action = new Statement.AddColumn(columnDef(), spanFrom(actionStart));
            }
        } else if (acceptWord("drop")) {
            if (acceptWord("constraint")) {
                action = new Statement.ChangeConstraint(false, identifier("a constraint name"), spanFrom(actionStart));
            } else {
                acceptWord("column");
                action = new Statement.DropColumn(identifier("a column name"), spanFrom(actionStart));
            }
        } else if (acceptWord("alter")) {
            acceptWord("column");
            String column = identifier("a column name");
            if (acceptWord("set")) {
                if (acceptWord("not")) {
                    expectWord("null");
                    action = new Statement.SetColumnNotNull(column, true, spanFrom(actionStart));
                } else if (acceptWord("data")) {
                    expectWord("type");
                    action = new Statement.SetColumnType(column, typeName(), spanFrom(actionStart));
                } else if (acceptWord("collate")) {
                    action = new Statement.SetColumnCollation(column, identifier("a collation name"), spanFrom(actionStart));
                } else {
                    throw expected("'not null', 'data type' or 'collate'");
                }
            } else if (acceptWord("drop")) {
                expectWord("not");
                expectWord("null");
                action = new Statement.SetColumnNotNull(column, false, spanFrom(actionStart));
            } else if (acceptWord("type")) {
                // PostgreSQL's short form of "set data type"
                action = new Statement.SetColumnType(column, typeName(), spanFrom(actionStart));
            } else {
                throw expected("'set', 'drop' or 'type'");
            }
        } else {
            throw expected("'rename', 'add', 'drop' or 'alter'");
        }
        return new Statement.AlterTable(table, action, spanFrom(first));
    }

    /** A type name with an optional {@code (n)} or {@code (p, s)}, which Derive does not enforce. */
    private String typeName() {
        String name = identifier("a type name");
        if (acceptOperator("(")) {
            expectNumber();
            if (acceptOperator(",")) {
                expectNumber();
            }
            expectOperator(")");
        }
        return name;
    }

    /** Consumes the tokens up to the end of the statement: for a clause parsed only to be refused. */
    private void skipToStatementEnd() {
        int depth = 0;
        while (peek().kind() != TokenKind.EOF && !(depth == 0 && peek().isOperator(";"))) {
            if (peek().isOperator("(")) {
                depth++;
            } else if (peek().isOperator(")")) {
                depth--;
            }
            next();
        }
    }

    private Statement createTable(Token first) {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = qualifiedName();
        expectOperator("(");
        List<Statement.ColumnDef> columns = new ArrayList<>();
        List<Statement.KeyColumn> primaryKey = new ArrayList<>();
        List<Statement.TableConstraint> constraints = new ArrayList<>();
        do {
            Token start = peek();
            if (isTableConstraintStart(start)) {
                String constraintName = acceptWord("constraint") ? identifier("a constraint name") : null;
                if (acceptWord("primary")) {
                    expectWord("key");
                    if (!primaryKey.isEmpty()) {
                        throw error("table " + name + " has more than one primary key", start);
                    }
                    primaryKey.addAll(keyColumns());
                } else if (acceptWord("unique")) {
                    constraints.add(new Statement.UniqueDef(constraintName, keyColumns(), spanFrom(start)));
                } else if (acceptWord("check")) {
                    constraints.add(check(constraintName, start));
                } else if (acceptWord("foreign")) {
                    expectWord("key");
                    expectOperator("(");
                    List<String> childColumns = identifierList();
                    expectOperator(")");
                    expectWord("references");
                    constraints.add(references(constraintName, childColumns, start));
                } else {
                    throw expected("'primary key', 'unique', 'check' or 'foreign key'");
                }
            } else {
                columns.add(columnDef());
            }
        } while (acceptOperator(","));
        expectOperator(")");
        Statement.HostClause host = hostClause();
        return new Statement.CreateTable(name, ifNotExists, columns, primaryKey, constraints, host, spanFrom(first));
    }

    private static boolean isTableConstraintStart(Token t) {
        return t.isWord("constraint") || t.isWord("primary") || t.isWord("unique") || t.isWord("check")
                || t.isWord("foreign");
    }

    /** {@code (c [asc|desc], …)}. */
    private List<Statement.KeyColumn> keyColumns() {
        List<Statement.KeyColumn> columns = new ArrayList<>();
        expectOperator("(");
        do {
            Token column = peek();
            String columnName = identifier("a column name");
            boolean descending = direction();
            columns.add(new Statement.KeyColumn(columnName, descending, spanFrom(column)));
        } while (acceptOperator(","));
        expectOperator(")");
        return columns;
    }

    private List<String> identifierList() {
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier("a column name"));
        } while (acceptOperator(","));
        return names;
    }

    /** The rest of {@code check (condition)}, after the keyword. */
    private Statement.CheckDef check(String constraintName, Token start) {
        expectOperator("(");
        Expr condition = expr();
        expectOperator(")");
        return new Statement.CheckDef(constraintName, condition, condition.span().text(sql), spanFrom(start));
    }

    /** The rest of a foreign key, after {@code references}: {@code p [(c, …)] [on delete|update action] [match name]}. */
    private Statement.ForeignKeyDef references(String constraintName, List<String> childColumns, Token start) {
        QualifiedName parent = qualifiedName();
        List<String> parentColumns = new ArrayList<>();
        if (acceptOperator("(")) {
            parentColumns = identifierList();
            expectOperator(")");
        }
        Statement.ReferentialAction onDelete = Statement.ReferentialAction.NO_ACTION;
        Statement.ReferentialAction onUpdate = Statement.ReferentialAction.NO_ACTION;
        while (true) {
            if (peek().isWord("on") && (peek(1).isWord("delete") || peek(1).isWord("update"))) {
                next();
                boolean delete = next().isWord("delete");
                Statement.ReferentialAction action = referentialAction();
                if (delete) {
                    onDelete = action;
                } else {
                    onUpdate = action;
                }
            } else if (acceptWord("match")) {
                Token kind = peek();
                if (!acceptWord("simple")) {
                    throw error("syntax error: only MATCH SIMPLE is supported, found " + kind.describe(), kind);
                }
            } else {
                break;
            }
        }
        return new Statement.ForeignKeyDef(constraintName, childColumns, parent, parentColumns, onDelete, onUpdate,
                spanFrom(start));
    }

    private Statement.ReferentialAction referentialAction() {
        if (acceptWord("cascade")) {
            return Statement.ReferentialAction.CASCADE;
        }
        if (acceptWord("restrict")) {
            return Statement.ReferentialAction.RESTRICT;
        }
        if (acceptWord("no")) {
            expectWord("action");
            return Statement.ReferentialAction.NO_ACTION;
        }
        if (acceptWord("set")) {
            if (acceptWord("null")) {
                return Statement.ReferentialAction.SET_NULL;
            }
            expectWord("default");
            return Statement.ReferentialAction.SET_DEFAULT;
        }
        throw expected("'cascade', 'restrict', 'no action', 'set null' or 'set default'");
    }

    private Statement createIndex(Token first, boolean unique) {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = qualifiedName();
        expectWord("on");
        QualifiedName table = qualifiedName();
        expectOperator("(");
        List<Statement.IndexedColumn> columns = new ArrayList<>();
        do {
            Token column = peek();
            String columnName = identifier("a column name");
            String collation = acceptWord("collate") ? identifier("a collation name") : null;
            boolean descending = direction();
            columns.add(new Statement.IndexedColumn(columnName, collation, descending, spanFrom(column)));
        } while (acceptOperator(","));
        expectOperator(")");
        Expr where = acceptWord("where") ? expr() : null;
        return new Statement.CreateIndex(name, unique, ifNotExists, table, columns, where, spanFrom(first));
    }

    /** {@code pragma name [= value]} or {@code pragma name(value)}, after the keyword. */
    private Statement pragma(Token first) {
        String name = identifier("a pragma name");
        String value = null;
        if (acceptOperator("=")) {
            value = pragmaValue();
        } else if (acceptOperator("(")) {
            value = pragmaValue();
            expectOperator(")");
        }
        return new Statement.Pragma(name.toLowerCase(Locale.ROOT), value, spanFrom(first));
    }

    private String pragmaValue() {
        int mark = pos;
        boolean negative = acceptOperator("-");
        Token v = peek();
        if (v.kind() == TokenKind.INTEGER || v.kind() == TokenKind.REAL
                || (!negative && (v.kind() == TokenKind.STRING || v.kind() == TokenKind.WORD
                || v.kind() == TokenKind.QUOTED_IDENTIFIER))) {
            next();
            return (negative ? "-" : "") + v.text();
        }
        pos = mark;
        throw expected("a pragma value");
    }

    /** {@code or abort|fail|ignore|replace|rollback} after {@code insert} or {@code update}; null when absent. */
    private Statement.ConflictAction conflictAction() {
        if (!acceptWord("or")) {
            return null;
        }
        for (Statement.ConflictAction action : Statement.ConflictAction.values()) {
            if (acceptWord(action.name().toLowerCase(Locale.ROOT))) {
                return action;
            }
        }
        throw expected("'abort', 'fail', 'ignore', 'replace' or 'rollback'");
    }

    /** {@code returning item, …}; empty when there is no such clause. */
    private List<Select.SelectItem> returning() {
        List<Select.SelectItem> items = new ArrayList<>();
        if (acceptWord("returning")) {
            do {
                items.add(selectItem());
            } while (acceptOperator(","));
        }
        return items;
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
        List<Statement.TableConstraint> constraints = new ArrayList<>();
        boolean nullDeclared = false;
        while (true) {
            Token start = peek();
            String constraintName = acceptWord("constraint") ? identifier("a constraint name") : null;
            if (acceptWord("unique")) {
                constraints.add(new Statement.UniqueDef(constraintName,
                        List.of(new Statement.KeyColumn(name, false, first.span())), spanFrom(start)));
            } else if (acceptWord("check")) {
                constraints.add(check(constraintName, start));
            } else if (acceptWord("references")) {
                constraints.add(references(constraintName, List.of(name), start));
            } else if (acceptWord("not")) {
                expectWord("null");
                notNull = true;
            } else if (acceptWord("null")) {
                notNull = false;
                nullDeclared = true;
            } else if (acceptWord("primary")) {
                expectWord("key");
                primaryKey = true;
                descending = direction();
            } else if (acceptWord("collate")) {
                collation = identifier("a collation name");
            } else if (acceptWord("default")) {
                // a signed number, a literal, or a parenthesized expression
                defaultValue = acceptOperator("(") ? parenthesizedRest()
                        : peek().isOperator("-") || peek().isOperator("+") ? unary() : primary();
            } else {
                break;
            }
        }
        return new Statement.ColumnDef(name, typeName, notNull, primaryKey, descending, collation, defaultValue,
                constraints, nullDeclared, spanFrom(first));
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
        if (acceptWord("index")) {
            boolean ifExists = false;
            if (acceptWord("if")) {
                expectWord("exists");
                ifExists = true;
            }
            return new Statement.DropIndex(qualifiedName(), ifExists, spanFrom(first));
        }
        if (acceptWord("table")) {
            kind = Statement.ObjectKind.TABLE;
        } else if (acceptWord("materialized")) {
            expectWord("view");
            kind = Statement.ObjectKind.MATERIALIZED_VIEW;
        } else if (acceptWord("view")) {
            kind = Statement.ObjectKind.VIEW;
        } else {
            throw expected("'table', 'view' or 'materialized view'");
        }
        boolean ifExists = false;
        if (acceptWord("if")) {
            expectWord("exists");
            ifExists = true;
        }
        QualifiedName name = qualifiedName();
        return new Statement.Drop(kind, name, ifExists, spanFrom(first));
    }

    /** After {@code insert [or action]} or {@code replace}. */
    private Statement insert(Token first, Statement.ConflictAction onConflict) {
        expectWord("into");
        QualifiedName table = qualifiedName();
        List<String> columns = new ArrayList<>();
        if (acceptOperator("(")) {
            columns = identifierList();
            expectOperator(")");
        }
        List<List<Expr>> rows = null;
        Select select = null;
        if (acceptWord("default")) {
            expectWord("values");
        } else if (acceptWord("values")) {
            rows = new ArrayList<>();
            do {
                expectOperator("(");
                rows.add(exprList());
                expectOperator(")");
            } while (acceptOperator(","));
        } else if (startsQuery()) {
            select = select();
        } else {
            throw expected("'values', 'select' or 'default values'");
        }
        Statement.Upsert upsert = peek().isWord("on") ? upsert() : null;
        List<Select.SelectItem> returning = returning();
        return new Statement.Insert(table, columns, rows, select, onConflict, upsert, returning, spanFrom(first));
    }

    /** {@code on conflict [(c, …) [where …]] do nothing | do update set … [where …]}. */
    private Statement.Upsert upsert() {
        Token first = expectWord("on");
        expectWord("conflict");
        List<Statement.KeyColumn> target = new ArrayList<>();
        Expr targetWhere = null;
        if (peek().isOperator("(")) {
            target = keyColumns();
            targetWhere = acceptWord("where") ? expr() : null;
        }
        expectWord("do");
        if (acceptWord("nothing")) {
            return new Statement.Upsert(target, targetWhere, List.of(), null, spanFrom(first));
        }
        expectWord("update");
        expectWord("set");
        List<Statement.Assignment> assignments = assignments();
        Expr where = acceptWord("where") ? expr() : null;
        return new Statement.Upsert(target, targetWhere, assignments, where, spanFrom(first));
    }

    private List<Statement.Assignment> assignments() {
        List<Statement.Assignment> assignments = new ArrayList<>();
        do {
            Token column = peek();
            String name = identifier("a column name");
            expectOperator("=");
            assignments.add(new Statement.Assignment(name, expr(), spanFrom(column)));
        } while (acceptOperator(","));
        return assignments;
    }

    private Statement update(Token first) {
        Statement.ConflictAction onConflict = conflictAction();
        QualifiedName table = qualifiedName();
        expectWord("set");
        List<Statement.Assignment> assignments = assignments();
        Expr where = acceptWord("where") ? expr() : null;
        List<Select.SelectItem> returning = returning();
        return new Statement.Update(table, assignments, where, onConflict, returning, spanFrom(first));
    }

    /** A whole query: optional {@code with}, a compound of select cores, order by and limit. */
    private Select select() {
        Token first = peek();
        List<Select.CommonTable> with = new ArrayList<>();
        boolean recursive = false;
        if (acceptWord("with")) {
            recursive = acceptWord("recursive");
            do {
                Token cteStart = peek();
                String name = identifier("a common table name");
                List<String> columns = new ArrayList<>();
                if (acceptOperator("(")) {
                    do {
                        columns.add(identifier("a column name"));
                    } while (acceptOperator(","));
                    expectOperator(")");
                }
                expectWord("as");
                expectOperator("(");
                Select query = select();
                expectOperator(")");
                with.add(new Select.CommonTable(name, columns, query, spanFrom(cteStart)));
            } while (acceptOperator(","));
        }
        Select core = selectCore();
        // A values list arrives as a compound of one-row members already.
        List<Select.Compound> compounds = new ArrayList<>(core.compounds());
        while (true) {
            Token opStart = peek();
            Select.SetOperator op;
            if (acceptWord("union")) {
                op = acceptWord("all") ? Select.SetOperator.UNION_ALL : Select.SetOperator.UNION;
            } else if (acceptWord("intersect")) {
                op = Select.SetOperator.INTERSECT;
            } else if (acceptWord("except")) {
                op = Select.SetOperator.EXCEPT;
            } else {
                break;
            }
            Select member = selectCore();
            compounds.add(new Select.Compound(op, member, spanFrom(opStart)));
        }
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
        return new Select(with, recursive, core.distinct(), core.items(), core.from(), core.where(), core.groupBy(),
                core.having(), compounds, orderBy, limit, offset, spanFrom(first));
    }

    /** {@code select [distinct] items [from] [where] [group by [having]]}, or {@code values (…), …}. */
    private Select selectCore() {
        Token first = peek();
        if (acceptWord("values")) {
            return valuesCore(first);
        }
        expectWord("select");
        boolean distinct = acceptWord("distinct");
        if (!distinct) {
            acceptWord("all");
        }
        List<Select.SelectItem> items = new ArrayList<>();
        do {
            items.add(selectItem());
        } while (acceptOperator(","));
        Select.TableRef from = acceptWord("from") ? fromClause() : null;
        Expr where = acceptWord("where") ? expr() : null;
        List<Expr> groupBy = new ArrayList<>();
        Expr having = null;
        if (acceptWord("group")) {
            expectWord("by");
            groupBy = exprList();
        }
        if (acceptWord("having")) {
            having = expr();
        }
        return new Select(List.of(), false, distinct, items, from, where, groupBy, having, List.of(), List.of(),
                null, null, spanFrom(first));
    }

    /** {@code values (…), (…)} as a query: a union all of one-row selects with columns column1, column2, …. */
    private Select valuesCore(Token first) {
        List<List<Expr>> rows = new ArrayList<>();
        do {
            expectOperator("(");
            rows.add(exprList());
            expectOperator(")");
        } while (acceptOperator(","));
        List<Select.Compound> compounds = new ArrayList<>();
        Select head = null;
        for (List<Expr> row : rows) {
            if (row.size() != rows.get(0).size()) {
                throw error("all VALUES must have the same number of terms", first);
            }
            List<Select.SelectItem> items = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                items.add(new Select.Column(row.get(i), "column" + (i + 1), row.get(i).span()));
            }
            Select core = new Select(List.of(), false, false, items, null, null, List.of(), null, List.of(),
                    List.of(), null, null, spanFrom(first));
            if (head == null) {
                head = core;
            } else {
                compounds.add(new Select.Compound(Select.SetOperator.UNION_ALL, core, core.span()));
            }
        }
        return new Select(List.of(), false, false, head.items(), null, null, List.of(), null, compounds,
                List.of(), null, null, spanFrom(first));
    }

    private Select.TableRef fromClause() {
        Select.TableRef left = tableRef();
        while (true) {
            Token joinStart = peek();
            if (acceptOperator(",")) {
                Select.TableRef right = tableRef();
                left = new Select.Join(left, Select.JoinKind.CROSS, false, right, null, List.of(), spanFrom(joinStart));
                continue;
            }
            boolean natural = acceptWord("natural");
            Select.JoinKind kind = joinKind();
            if (kind == null) {
                if (natural) {
                    throw expected("'join'");
                }
                return left;
            }
            Select.TableRef right = tableRef();
            Expr condition = null;
            List<String> using = new ArrayList<>();
            if (!natural && acceptWord("on")) {
                condition = expr();
            } else if (!natural && acceptWord("using")) {
                expectOperator("(");
                do {
                    using.add(identifier("a column name"));
                } while (acceptOperator(","));
                expectOperator(")");
            }
            left = new Select.Join(left, kind, natural, right, condition, using, spanFrom(joinStart));
        }
    }

    /** The join keyword sequence at the cursor, consumed; null when there is none. */
    private Select.JoinKind joinKind() {
        if (acceptWord("join")) {
            return Select.JoinKind.INNER;
        }
        Select.JoinKind kind;
        if (acceptWord("inner")) {
            kind = Select.JoinKind.INNER;
        } else if (acceptWord("cross")) {
            kind = Select.JoinKind.CROSS;
        } else if (acceptWord("left")) {
            kind = Select.JoinKind.LEFT;
        } else if (acceptWord("right")) {
            kind = Select.JoinKind.RIGHT;
        } else if (acceptWord("full")) {
            kind = Select.JoinKind.FULL;
        } else {
            return null;
        }
        if (kind == Select.JoinKind.LEFT || kind == Select.JoinKind.RIGHT || kind == Select.JoinKind.FULL) {
            acceptWord("outer");
        }
        expectWord("join");
        return kind;
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
        boolean lateral = acceptWord("lateral");
        if (peek().isOperator("(")) {
            next();
            if (peek().isWord("select") || peek().isWord("with") || peek().isWord("values")) {
                Select query = select();
                expectOperator(")");
                return new Select.Subquery(query, alias(), lateral, spanFrom(first));
            }
            if (lateral) {
                throw expected("a subquery");
            }
            Select.TableRef inner = fromClause();
            expectOperator(")");
            return inner;
        }
        if (isIdentifier(peek()) && peek(1).isOperator("(")) {
            String name = identifier("a table function name");
            next();
            List<Expr> args = peek().isOperator(")") ? List.of() : exprList();
            expectOperator(")");
            return new Select.TableFunction(name.toLowerCase(Locale.ROOT), args, alias(), lateral, spanFrom(first));
        }
        if (lateral) {
            throw expected("a table function or subquery after 'lateral'");
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
            if (!peek().isOperator("(")) {
                Token tableStart = peek();
                QualifiedName table = qualifiedName();
                Select all = new Select(List.of(), false, false, List.of(new Select.Star(null, table.span())),
                        new Select.NamedTable(table, null, table.span()), null, List.of(), null, List.of(), List.of(),
                        null, null, spanFrom(tableStart));
                return new Expr.InQuery(left, all, negated, left.span().to(previous().span()));
            }
            expectOperator("(");
            if (startsQuery()) {
                Select query = select();
                expectOperator(")");
                return new Expr.InQuery(left, query, negated, left.span().to(previous().span()));
            }
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
                    if (startsQuery()) {
                        Select query = select();
                        expectOperator(")");
                        return new Expr.ScalarSubquery(query, spanFrom(t));
                    }
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
            case "current_date", "current_time", "current_timestamp":
                // SQL's niladic datetime keywords: calls of the functions of the same name.
                if (!peek().isOperator("(")) {
                    return new Expr.FunctionCall(word, List.of(), false, false, t.span());
                }
                break;
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
            case "exists": {
                expectOperator("(");
                Select query = select();
                expectOperator(")");
                return new Expr.Exists(query, false, spanFrom(t));
            }
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

    /** Whether a query starts at the cursor (inside parentheses: a subquery rather than an expression). */
    private boolean startsQuery() {
        return peek().isWord("select") || peek().isWord("with") || peek().isWord("values");
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
