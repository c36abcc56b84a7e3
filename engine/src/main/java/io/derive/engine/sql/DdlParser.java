package io.derive.engine.sql;

import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Schema statements: {@code create table|index|view|materialized view} with their column
 * definitions and constraints, {@code drop}, and the actions of {@code alter table}.
 */
final class DdlParser {

    private final TokenCursor tokens;
    private final ExpressionParser expressions;
    private final QueryParser queries;

    DdlParser(TokenCursor tokens, QueryParser queries) {
        this.tokens = tokens;
        this.expressions = queries.expressions();
        this.queries = queries;
    }

    /** After {@code create}. */
    Statement create(Token first) {
        boolean unique = tokens.acceptWord("unique");
        if (tokens.acceptWord("index")) {
            return createIndex(first, unique);
        }
        if (unique) {
            throw tokens.expected("'index'");
        }
        if (tokens.acceptWord("table")) {
            return createTable(first, false);
        }
        if (tokens.acceptWord("materialized")) {
            tokens.expectWord("view");
            boolean ifNotExists = ifNotExists();
            QualifiedName name = tokens.qualifiedName();
            List<String> columns = new ArrayList<>();
            if (tokens.acceptOperator("(")) {
                do {
                    columns.add(tokens.identifier("a column name"));
                } while (tokens.acceptOperator(","));
                tokens.expectOperator(")");
            }
            Statement.HostClause host = hostClause();
            tokens.expectWord("as");
            Token bodyStart = tokens.peek();
            Select body = queries.select();
            String bodySql = tokens.textFrom(bodyStart);
            return new Statement.CreateMaterializedView(name, ifNotExists, columns, host, body, bodySql,
                    tokens.spanFrom(first));
        }
        boolean temporary = tokens.acceptWord("temp") || tokens.acceptWord("temporary");
        if (tokens.acceptWord("view")) {
            return createView(first, temporary);
        }
        if (temporary && tokens.acceptWord("table")) {
            return createTable(first, true);
        }
        throw tokens.expected(temporary ? "'table' or 'view'" : "'table', 'view' or 'materialized view'");
    }

    private Statement createView(Token first, boolean temporary) {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = tokens.qualifiedName();
        List<String> columns = new ArrayList<>();
        if (tokens.acceptOperator("(")) {
            do {
                columns.add(tokens.identifier("a column name"));
            } while (tokens.acceptOperator(","));
            tokens.expectOperator(")");
        }
        tokens.expectWord("as");
        Token bodyStart = tokens.peek();
        Select body = queries.select();
        String bodySql = tokens.textFrom(bodyStart);
        return new Statement.CreateView(name, temporary, ifNotExists, columns, body, bodySql, tokens.spanFrom(first));
    }

    /** The action of {@code alter table t …}, the forms of semantics §1. */
    Statement alterTable(Token first) {
        QualifiedName table = tokens.qualifiedName();
        Token actionStart = tokens.peek();
        Statement.AlterAction action;
        if (tokens.acceptWord("rename")) {
            if (tokens.acceptWord("to")) {
                action = new Statement.RenameTable(tokens.identifier("a table name"), tokens.spanFrom(actionStart));
            } else {
                tokens.acceptWord("column");
                String column = tokens.identifier("a column name");
                tokens.expectWord("to");
                action = new Statement.RenameColumn(column, tokens.identifier("a column name"),
                        tokens.spanFrom(actionStart));
            }
        } else if (tokens.acceptWord("add")) {
            if (tokens.peek().isWord("constraint") || tokens.peek().isWord("primary") || tokens.peek().isWord("unique")
                    || tokens.peek().isWord("check") || tokens.peek().isWord("foreign")) {
                String name = tokens.acceptWord("constraint") ? tokens.identifier("a constraint name") : null;
                skipToStatementEnd();
                action = new Statement.ChangeConstraint(true, name, tokens.spanFrom(actionStart));
            } else {
                tokens.acceptWord("column");
                action = new Statement.AddColumn(columnDef(), tokens.spanFrom(actionStart));
            }
        } else if (tokens.acceptWord("drop")) {
            if (tokens.acceptWord("constraint")) {
                action = new Statement.ChangeConstraint(false, tokens.identifier("a constraint name"),
                        tokens.spanFrom(actionStart));
            } else {
                tokens.acceptWord("column");
                action = new Statement.DropColumn(tokens.identifier("a column name"), tokens.spanFrom(actionStart));
            }
        } else if (tokens.acceptWord("alter")) {
            tokens.acceptWord("column");
            String column = tokens.identifier("a column name");
            if (tokens.acceptWord("set")) {
                if (tokens.acceptWord("not")) {
                    tokens.expectWord("null");
                    action = new Statement.SetColumnNotNull(column, true, tokens.spanFrom(actionStart));
                } else if (tokens.acceptWord("data")) {
                    tokens.expectWord("type");
                    action = new Statement.SetColumnType(column, typeName(), tokens.spanFrom(actionStart));
                } else if (tokens.acceptWord("collate")) {
                    action = new Statement.SetColumnCollation(column, tokens.identifier("a collation name"),
                            tokens.spanFrom(actionStart));
                } else {
                    throw tokens.expected("'not null', 'data type' or 'collate'");
                }
            } else if (tokens.acceptWord("drop")) {
                tokens.expectWord("not");
                tokens.expectWord("null");
                action = new Statement.SetColumnNotNull(column, false, tokens.spanFrom(actionStart));
            } else if (tokens.acceptWord("type")) {
                // PostgreSQL's short form of "set data type"
                action = new Statement.SetColumnType(column, typeName(), tokens.spanFrom(actionStart));
            } else {
                throw tokens.expected("'set', 'drop' or 'type'");
            }
        } else {
            throw tokens.expected("'rename', 'add', 'drop' or 'alter'");
        }
        return new Statement.AlterTable(table, action, tokens.spanFrom(first));
    }

    /** A type name with an optional {@code (n)} or {@code (p, s)}, which Derive does not enforce. */
    private String typeName() {
        String name = tokens.identifier("a type name");
        if (tokens.acceptOperator("(")) {
            tokens.expectNumber();
            if (tokens.acceptOperator(",")) {
                tokens.expectNumber();
            }
            tokens.expectOperator(")");
        }
        return name;
    }

    /** Consumes the tokens up to the end of the statement: for a clause parsed only to be refused. */
    private void skipToStatementEnd() {
        int depth = 0;
        while (tokens.peek().kind() != TokenKind.EOF && !(depth == 0 && tokens.peek().isOperator(";"))) {
            if (tokens.peek().isOperator("(")) {
                depth++;
            } else if (tokens.peek().isOperator(")")) {
                depth--;
            }
            tokens.next();
        }
    }

    /** {@code create [temp] table}; a temporary table lives in schema {@code temp}, as in SQLite. */
    private Statement createTable(Token first, boolean temporary) {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = tokens.qualifiedName();
        if (temporary) {
            if (name.schema() != null && !name.schema().equalsIgnoreCase("temp")) {
                throw new io.derive.engine.api.DeriveException(io.derive.engine.api.DeriveException.SYNTAX,
                        "temporary table name must be unqualified", name.span().line(), name.span().column());
            }
            name = new QualifiedName("temp", name.name(), name.span());
        }
        tokens.expectOperator("(");
        List<Statement.ColumnDef> columns = new ArrayList<>();
        List<Statement.KeyColumn> primaryKey = new ArrayList<>();
        List<Statement.TableConstraint> constraints = new ArrayList<>();
        do {
            Token start = tokens.peek();
            if (isTableConstraintStart(start)) {
                String constraintName = tokens.acceptWord("constraint") ? tokens.identifier("a constraint name") : null;
                if (tokens.acceptWord("primary")) {
                    tokens.expectWord("key");
                    if (!primaryKey.isEmpty()) {
                        throw TokenCursor.error("table " + name + " has more than one primary key", start);
                    }
                    primaryKey.addAll(tokens.keyColumns());
                } else if (tokens.acceptWord("unique")) {
                    constraints.add(new Statement.UniqueDef(constraintName, tokens.keyColumns(),
                            tokens.spanFrom(start)));
                } else if (tokens.acceptWord("check")) {
                    constraints.add(check(constraintName, start));
                } else if (tokens.acceptWord("foreign")) {
                    tokens.expectWord("key");
                    tokens.expectOperator("(");
                    List<String> childColumns = tokens.identifierList();
                    tokens.expectOperator(")");
                    tokens.expectWord("references");
                    constraints.add(references(constraintName, childColumns, start));
                } else {
                    throw tokens.expected("'primary key', 'unique', 'check' or 'foreign key'");
                }
            } else {
                columns.add(columnDef());
            }
        } while (tokens.acceptOperator(","));
        tokens.expectOperator(")");
        Statement.HostClause host = hostClause();
        return new Statement.CreateTable(name, ifNotExists, columns, primaryKey, constraints, host,
                tokens.spanFrom(first));
    }

    private static boolean isTableConstraintStart(Token t) {
        return t.isWord("constraint") || t.isWord("primary") || t.isWord("unique") || t.isWord("check")
                || t.isWord("foreign");
    }

    /** The rest of {@code check (condition)}, after the keyword. */
    private Statement.CheckDef check(String constraintName, Token start) {
        tokens.expectOperator("(");
        Expr condition = expressions.expr();
        tokens.expectOperator(")");
        return new Statement.CheckDef(constraintName, condition, tokens.text(condition.span()), tokens.spanFrom(start));
    }

    /** The rest of a foreign key, after {@code references}: {@code p [(c, …)] [on delete|update action] [match name]}. */
    private Statement.ForeignKeyDef references(String constraintName, List<String> childColumns, Token start) {
        QualifiedName parent = tokens.qualifiedName();
        List<String> parentColumns = new ArrayList<>();
        if (tokens.acceptOperator("(")) {
            parentColumns = tokens.identifierList();
            tokens.expectOperator(")");
        }
        Statement.ReferentialAction onDelete = Statement.ReferentialAction.NO_ACTION;
        Statement.ReferentialAction onUpdate = Statement.ReferentialAction.NO_ACTION;
        while (true) {
            if (tokens.peek().isWord("on") && (tokens.peek(1).isWord("delete") || tokens.peek(1).isWord("update"))) {
                tokens.next();
                boolean delete = tokens.next().isWord("delete");
                Statement.ReferentialAction action = referentialAction();
                if (delete) {
                    onDelete = action;
                } else {
                    onUpdate = action;
                }
            } else if (tokens.acceptWord("match")) {
                Token kind = tokens.peek();
                if (!tokens.acceptWord("simple")) {
                    throw TokenCursor.error("syntax error: only MATCH SIMPLE is supported, found " + kind.describe(),
                            kind);
                }
            } else {
                break;
            }
        }
        return new Statement.ForeignKeyDef(constraintName, childColumns, parent, parentColumns, onDelete, onUpdate,
                tokens.spanFrom(start));
    }

    private Statement.ReferentialAction referentialAction() {
        if (tokens.acceptWord("cascade")) {
            return Statement.ReferentialAction.CASCADE;
        }
        if (tokens.acceptWord("restrict")) {
            return Statement.ReferentialAction.RESTRICT;
        }
        if (tokens.acceptWord("no")) {
            tokens.expectWord("action");
            return Statement.ReferentialAction.NO_ACTION;
        }
        if (tokens.acceptWord("set")) {
            if (tokens.acceptWord("null")) {
                return Statement.ReferentialAction.SET_NULL;
            }
            tokens.expectWord("default");
            return Statement.ReferentialAction.SET_DEFAULT;
        }
        throw tokens.expected("'cascade', 'restrict', 'no action', 'set null' or 'set default'");
    }

    private Statement createIndex(Token first, boolean unique) {
        boolean ifNotExists = ifNotExists();
        QualifiedName name = tokens.qualifiedName();
        tokens.expectWord("on");
        QualifiedName table = tokens.qualifiedName();
        tokens.expectOperator("(");
        List<Statement.IndexedColumn> columns = new ArrayList<>();
        do {
            Token column = tokens.peek();
            String columnName = tokens.identifier("a column name");
            String collation = tokens.acceptWord("collate") ? tokens.identifier("a collation name") : null;
            boolean descending = tokens.direction();
            columns.add(new Statement.IndexedColumn(columnName, collation, descending, tokens.spanFrom(column)));
        } while (tokens.acceptOperator(","));
        tokens.expectOperator(")");
        Expr where = tokens.acceptWord("where") ? expressions.expr() : null;
        return new Statement.CreateIndex(name, unique, ifNotExists, table, columns, where, tokens.spanFrom(first));
    }

    private Statement.ColumnDef columnDef() {
        Token first = tokens.peek();
        String name = tokens.identifier("a column name");
        String typeName = null;
        if (tokens.peek().kind() == TokenKind.WORD && !isColumnConstraintStart(tokens.peek())) {
            typeName = tokens.next().text();
            if (tokens.acceptOperator("(")) {
                tokens.expectNumber();
                if (tokens.acceptOperator(",")) {
                    tokens.expectNumber();
                }
                tokens.expectOperator(")");
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
            Token start = tokens.peek();
            String constraintName = tokens.acceptWord("constraint") ? tokens.identifier("a constraint name") : null;
            if (tokens.acceptWord("unique")) {
                constraints.add(new Statement.UniqueDef(constraintName,
                        List.of(new Statement.KeyColumn(name, false, first.span())), tokens.spanFrom(start)));
            } else if (tokens.acceptWord("check")) {
                constraints.add(check(constraintName, start));
            } else if (tokens.acceptWord("references")) {
                constraints.add(references(constraintName, List.of(name), start));
            } else if (tokens.acceptWord("not")) {
                tokens.expectWord("null");
                notNull = true;
            } else if (tokens.acceptWord("null")) {
                notNull = false;
                nullDeclared = true;
            } else if (tokens.acceptWord("primary")) {
                tokens.expectWord("key");
                primaryKey = true;
                descending = tokens.direction();
            } else if (tokens.acceptWord("collate")) {
                collation = tokens.identifier("a collation name");
            } else if (tokens.acceptWord("default")) {
                // a signed number, a literal, or a parenthesized expression
                defaultValue = tokens.acceptOperator("(") ? parenthesizedRest()
                        : tokens.peek().isOperator("-") || tokens.peek().isOperator("+") ? expressions.unary()
                        : expressions.primary();
            } else {
                break;
            }
        }
        return new Statement.ColumnDef(name, typeName, notNull, primaryKey, descending, collation, defaultValue,
                constraints, nullDeclared, tokens.spanFrom(first));
    }

    private Expr parenthesizedRest() {
        Expr e = expressions.expr();
        tokens.expectOperator(")");
        return e;
    }

    private static boolean isColumnConstraintStart(Token t) {
        return t.isWord("not") || t.isWord("null") || t.isWord("primary") || t.isWord("collate")
                || t.isWord("default") || t.isWord("constraint") || t.isWord("unique")
                || t.isWord("check") || t.isWord("references");
    }

    /** After {@code drop}. */
    Statement drop(Token first) {
        Statement.ObjectKind kind;
        if (tokens.acceptWord("index")) {
            boolean ifExists = false;
            if (tokens.acceptWord("if")) {
                tokens.expectWord("exists");
                ifExists = true;
            }
            return new Statement.DropIndex(tokens.qualifiedName(), ifExists, tokens.spanFrom(first));
        }
        if (tokens.acceptWord("table")) {
            kind = Statement.ObjectKind.TABLE;
        } else if (tokens.acceptWord("materialized")) {
            tokens.expectWord("view");
            kind = Statement.ObjectKind.MATERIALIZED_VIEW;
        } else if (tokens.acceptWord("view")) {
            kind = Statement.ObjectKind.VIEW;
        } else {
            throw tokens.expected("'table', 'view' or 'materialized view'");
        }
        boolean ifExists = false;
        if (tokens.acceptWord("if")) {
            tokens.expectWord("exists");
            ifExists = true;
        }
        QualifiedName name = tokens.qualifiedName();
        return new Statement.Drop(kind, name, ifExists, tokens.spanFrom(first));
    }

    private Statement.HostClause hostClause() {
        Token first = tokens.peek();
        if (!tokens.acceptWord("using")) {
            return null;
        }
        String module = tokens.identifier("a table module name").toLowerCase(Locale.ROOT);
        List<String> args = new ArrayList<>();
        if (tokens.acceptOperator("(")) {
            if (!tokens.peek().isOperator(")")) {
                do {
                    Token arg = tokens.peek();
                    if (arg.kind() == TokenKind.EOF || arg.kind() == TokenKind.OPERATOR) {
                        throw tokens.expected("a module argument");
                    }
                    args.add(tokens.next().text());
                } while (tokens.acceptOperator(","));
            }
            tokens.expectOperator(")");
        }
        return new Statement.HostClause(module, args, tokens.spanFrom(first));
    }

    private boolean ifNotExists() {
        if (tokens.acceptWord("if")) {
            tokens.expectWord("not");
            tokens.expectWord("exists");
            return true;
        }
        return false;
    }
}
