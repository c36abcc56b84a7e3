package io.derive.engine.sql;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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
            List<String> columns = tokens.optionalColumnNames();
            Statement.HostClause host = hostClause();
            tokens.expectWord("as");
            Token bodyStart = tokens.peek();
            Select body = queries.select();
            String bodySql = tokens.textFrom(bodyStart);
            List<Statement.Tag> tags = optionalTags();
            return new Statement.CreateMaterializedView(name, ifNotExists, columns, host, body, bodySql, tags,
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
        List<String> columns = tokens.optionalColumnNames();
        tokens.expectWord("as");
        Token bodyStart = tokens.peek();
        Select body = queries.select();
        String bodySql = tokens.textFrom(bodyStart);
        List<Statement.Tag> tags = optionalTags();
        return new Statement.CreateView(name, temporary, ifNotExists, columns, body, bodySql, tags, tokens.spanFrom(first));
    }

    /**
     * A chunked run's step after {@code refresh materialized view n} or {@code alter table t
     * attach}: {@code start run 'r'}, {@code continue run 'r' limit k}, {@code finish run 'r'},
     * {@code cancel}; null when none follows (a whole refresh).
     */
    Statement.RunStep runStep() {
        if (tokens.acceptWord("cancel")) {
            return new Statement.RunStep(Statement.RunStep.Phase.CANCEL, null, 0);
        }
        Statement.RunStep.Phase phase;
        if (tokens.acceptWord("start")) {
            phase = Statement.RunStep.Phase.START;
        } else if (tokens.acceptWord("continue")) {
            phase = Statement.RunStep.Phase.CONTINUE;
        } else if (tokens.acceptWord("finish")) {
            phase = Statement.RunStep.Phase.FINISH;
        } else {
            return null;
        }
        tokens.expectWord("run");
        if (tokens.peek().kind() != TokenKind.STRING) {
            throw tokens.expected("a run name as a string literal");
        }
        String run = tokens.next().text();
        long limit = 0;
        if (phase == Statement.RunStep.Phase.CONTINUE) {
            tokens.expectWord("limit");
            Token count = tokens.peek();
            if (count.kind() != TokenKind.INTEGER || !count.text().matches("[1-9][0-9]{0,8}")) {
                throw tokens.expected("a row count from 1 to 999999999");
            }
            limit = Long.parseLong(tokens.next().text());
        }
        return new Statement.RunStep(phase, run, limit);
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
        } else if (startsTagChange()) {
            action = new Statement.TableTags(tagChange(), tokens.spanFrom(actionStart));
        } else if (tokens.peek().isWord("set") && tokens.peek(1).isWord("maintained")) {
            tokens.next();
            tokens.next();
            List<String> names = optionalNameList();
            tokens.expectWord("as");
            Token bodyStart = tokens.peek();
            Select body = queries.select();
            action = new Statement.SetMaintained(names, body, tokens.textFrom(bodyStart), tokens.spanFrom(actionStart));
        } else if (tokens.acceptWord("attach")) {
            Statement.RunStep step = runStep();
            if (step == null) {
                throw tokens.expected("'start run', 'continue run', 'finish run' or 'cancel'");
            }
            Statement.SetMaintained derivation = null;
            String definition = null;
            if (step.phase() == Statement.RunStep.Phase.START) {
                Token derivationStart = tokens.peek();
                tokens.expectWord("maintained");
                List<String> names = optionalNameList();
                tokens.expectWord("as");
                Token bodyStart = tokens.peek();
                Select body = queries.select();
                derivation = new Statement.SetMaintained(names, body, tokens.textFrom(bodyStart),
                        tokens.spanFrom(derivationStart));
                definition = tokens.textFrom(derivationStart);
            }
            action = new Statement.AttachStep(step, derivation, definition, tokens.spanFrom(actionStart));
        } else if (tokens.peek().isWord("drop") && tokens.peek(1).isWord("maintained") && endsStatement(tokens.peek(2))) {
            tokens.next();
            tokens.next();
            action = new Statement.DropMaintained(tokens.spanFrom(actionStart));
        } else if (tokens.acceptWord("add")) {
            if (isTableConstraintStart(tokens.peek())) {
                action = new Statement.AddConstraint(addedConstraint(), tokens.spanFrom(actionStart));
            } else {
                tokens.acceptWord("column");
                action = new Statement.AddColumn(columnDef(), tokens.spanFrom(actionStart));
            }
        } else if (tokens.acceptWord("drop")) {
            if (tokens.acceptWord("constraint")) {
                action = new Statement.DropConstraint(tokens.identifier("a constraint name"), tokens.spanFrom(actionStart));
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
            throw tokens.expected("'rename', 'add', 'drop', 'alter' or 'set maintained'");
        }
        return new Statement.AlterTable(table, action, tokens.spanFrom(first));
    }

    /** After {@code alter materialized view}: {@code n set|add|drop tags (…)} or {@code n set|drop refresh schedule}. */
    Statement alterMaterializedView(Token first) {
        QualifiedName name = tokens.qualifiedName();
        Token actionStart = tokens.peek();
        Statement.ViewAction action;
        if (startsTagChange()) {
            action = tagChange();
        } else if ((tokens.peek().isWord("set") || tokens.peek().isWord("drop")) && tokens.peek(1).isWord("refresh")) {
            boolean set = tokens.next().isWord("set");
            tokens.next();
            tokens.expectWord("schedule");
            String cron = null;
            if (set) {
                if (tokens.peek().kind() != TokenKind.STRING) {
                    throw tokens.expected("a schedule as a string literal");
                }
                cron = tokens.next().text();
            }
            action = new Statement.RefreshSchedule(cron, tokens.spanFrom(actionStart));
        } else {
            throw tokens.expected("'set tags', 'add tags', 'drop tags', 'set refresh schedule' or 'drop refresh schedule'");
        }
        return new Statement.AlterMaterializedView(name, action, tokens.spanFrom(first));
    }

    /** After {@code alter view}: {@code v set|add|drop tags (…)}, the one change a view takes in place. */
    Statement alterView(Token first) {
        QualifiedName name = tokens.qualifiedName();
        if (!startsTagChange()) {
            throw tokens.expected("'set tags', 'add tags' or 'drop tags'");
        }
        Statement.ViewAction action = tagChange();
        return new Statement.AlterView(name, action, tokens.spanFrom(first));
    }

    private boolean startsTagChange() {
        return (tokens.peek().isWord("set") || tokens.peek().isWord("add") || tokens.peek().isWord("drop"))
                && tokens.peek(1).isWord("tags") && tokens.peek(2).isOperator("(");
    }

    /** {@code set|add tags (k = <literal>, …)} or {@code drop tags (k, …)}. */
    private Statement.ViewAction tagChange() {
        Token start = tokens.next();
        tokens.expectWord("tags");
        if (start.isWord("drop")) {
            tokens.expectOperator("(");
            List<String> keys = new ArrayList<>();
            do {
                keys.add(tagKey());
            } while (tokens.acceptOperator(","));
            tokens.expectOperator(")");
            return new Statement.DropTags(keys, tokens.spanFrom(start));
        }
        List<Statement.Tag> tags = tagListBody();
        return new Statement.PutTags(start.isWord("set"), tags, tokens.spanFrom(start));
    }

    /** A trailing {@code with tags (k = <literal>, …)}; empty when there is none. */
    private List<Statement.Tag> optionalTags() {
        if (!tokens.acceptWord("with")) {
            return List.of();
        }
        tokens.expectWord("tags");
        return tagListBody();
    }

    /** {@code (k = <literal>, …)}; a key may appear once. */
    private List<Statement.Tag> tagListBody() {
        tokens.expectOperator("(");
        List<Statement.Tag> tags = new ArrayList<>();
        do {
            Token start = tokens.peek();
            String key = tagKey();
            for (Statement.Tag t : tags) {
                if (t.key().equals(key)) {
                    throw TokenCursor.error("duplicate tag key: " + key, start);
                }
            }
            tokens.expectOperator("=");
            Object value = tagValue();
            tags.add(new Statement.Tag(key, value, tokens.spanFrom(start)));
        } while (tokens.acceptOperator(","));
        tokens.expectOperator(")");
        return tags;
    }

    /**
     * A tag value: a literal, kept as a value of its type (semantics §2: JSON of its type), so
     * {@code true} is a boolean here where an expression reads it as 1. Anything else, a column
     * or {@code 1 + 2}, is refused: a tag is metadata, never evaluated.
     */
    private Object tagValue() {
        Token start = tokens.peek();
        if ((start.isWord("true") || start.isWord("false"))
                && (tokens.peek(1).isOperator(",") || tokens.peek(1).isOperator(")"))) {
            tokens.next();
            return start.isWord("true");
        }
        Expr value = expressions.expr();
        if (value instanceof Expr.Literal literal && (literal.value() == null || literal.value() instanceof String
                || literal.value() instanceof Long || literal.value() instanceof Double d && Double.isFinite(d))) {
            return literal.value();
        }
        throw value.span().error(DeriveException.SYNTAX, "a tag value must be a literal (a string, a finite number, "
                + "true, false or null), not " + tokens.text(value.span()));
    }

    /** A tag key: a name or a string literal, kept as written (keys compare case-sensitively, as JSON keys do). */
    private String tagKey() {
        if (tokens.peek().kind() == TokenKind.STRING) {
            return tokens.next().text();
        }
        return tokens.identifier("a tag key");
    }

    private List<String> optionalNameList() {
        if (!tokens.acceptOperator("(")) {
            return List.of();
        }
        List<String> names = tokens.identifierList();
        tokens.expectOperator(")");
        return names;
    }

    private static boolean endsStatement(Token t) {
        return t.kind() == TokenKind.EOF || t.isOperator(";");
    }

    /** The constraint of {@code alter table t add …}: a named or unnamed UNIQUE, CHECK or FOREIGN KEY. */
    private Statement.TableConstraint addedConstraint() {
        Token start = tokens.peek();
        String constraintName = tokens.acceptWord("constraint") ? tokens.identifier("a constraint name") : null;
        if (tokens.peek().isWord("primary")) {
            throw new io.derive.engine.api.DeriveException(io.derive.engine.api.DeriveException.FEATURE_NOT_SUPPORTED,
                    "alter table … add primary key is not supported: a table's primary key is fixed by create table",
                    tokens.peek().span().line(), tokens.peek().span().column());
        }
        Statement.TableConstraint constraint = tableConstraint(constraintName, start);
        if (constraint == null) {
            throw tokens.expected("'unique', 'check' or 'foreign key'");
        }
        return constraint;
    }

    /** A UNIQUE, CHECK or FOREIGN KEY clause after its optional name; null when none starts here. */
    private Statement.TableConstraint tableConstraint(String constraintName, Token start) {
        if (tokens.acceptWord("unique")) {
            List<Statement.KeyColumn> columns = tokens.keyColumns();
            return new Statement.UniqueDef(constraintName, columns, conflictClause(), tokens.spanFrom(start));
        }
        if (tokens.acceptWord("check")) {
            Statement.CheckDef check = check(constraintName, start);
            // SQLite accepts a conflict clause after a table-level CHECK and ignores it: a CHECK
            // violation is resolved by the statement's "or …" alone
            conflictClause();
            return check;
        }
        if (tokens.acceptWord("foreign")) {
            tokens.expectWord("key");
            tokens.expectOperator("(");
            List<String> childColumns = tokens.identifierList();
            tokens.expectOperator(")");
            tokens.expectWord("references");
            return references(constraintName, childColumns, start);
        }
        return null;
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
        Statement.ConflictAction primaryKeyConflict = null;
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
                    primaryKeyConflict = conflictClause();
                } else {
                    Statement.TableConstraint constraint = tableConstraint(constraintName, start);
                    if (constraint == null) {
                        throw tokens.expected("'primary key', 'unique', 'check' or 'foreign key'");
                    }
                    constraints.add(constraint);
                }
            } else {
                columns.add(columnDef());
            }
        } while (tokens.acceptOperator(","));
        tokens.expectOperator(")");
        Statement.HostClause host = hostClause();
        if (!tokens.acceptWord("maintained")) {
            List<Statement.Tag> tags = optionalTags();
            return new Statement.CreateTable(name, ifNotExists, columns, primaryKey, primaryKeyConflict, constraints,
                    host, tags, tokens.spanFrom(first));
        }
        List<String> names = optionalNameList();
        tokens.expectWord("as");
        Token bodyStart = tokens.peek();
        Select body = queries.select();
        String bodySql = tokens.textFrom(bodyStart);
        List<Statement.Tag> tags = optionalTags();
        Statement.CreateTable table = new Statement.CreateTable(name, ifNotExists, columns, primaryKey, primaryKeyConflict,
                constraints, host, tags, tokens.spanFrom(first));
        return new Statement.CreateMaintainedTable(table, names, body, bodySql, tokens.spanFrom(first));
    }

    private static boolean isTableConstraintStart(Token t) {
        return t.isWord("constraint") || t.isWord("primary") || t.isWord("unique") || t.isWord("check")
                || t.isWord("foreign");
    }

    /** The rest of {@code check [on insert|update|delete, …] (condition)}, after the keyword. */
    private Statement.CheckDef check(String constraintName, Token start) {
        Set<Statement.RowOperation> operations = EnumSet.noneOf(Statement.RowOperation.class);
        if (tokens.acceptWord("on")) {
            do {
                Token operation = tokens.peek();
                Statement.RowOperation named = tokens.acceptWord("insert") ? Statement.RowOperation.INSERT
                        : tokens.acceptWord("update") ? Statement.RowOperation.UPDATE
                        : tokens.acceptWord("delete") ? Statement.RowOperation.DELETE : null;
                if (named == null) {
                    throw tokens.expected("'insert', 'update' or 'delete'");
                }
                if (!operations.add(named)) {
                    throw TokenCursor.error("CHECK names " + operation.text() + " twice", operation);
                }
            } while (tokens.acceptOperator(","));
        } else {
            operations.add(Statement.RowOperation.INSERT);
            operations.add(Statement.RowOperation.UPDATE);
        }
        tokens.expectOperator("(");
        Expr condition = expressions.expr();
        tokens.expectOperator(")");
        return new Statement.CheckDef(constraintName, operations, condition, tokens.text(condition.span()),
                tokens.spanFrom(start));
    }

    /**
     * An optional {@code on conflict rollback|abort|fail|ignore|replace} after a PRIMARY KEY,
     * UNIQUE or NOT NULL clause (SQLite's conflict clause); null when none is written. An
     * explicit {@code abort} is the default and reads as none.
     */
    private Statement.ConflictAction conflictClause() {
        if (!(tokens.peek().isWord("on") && tokens.peek(1).isWord("conflict"))) {
            return null;
        }
        tokens.next();
        tokens.next();
        Statement.ConflictAction action = conflictAction(tokens.peek());
        if (action == null) {
            throw tokens.expected("'rollback', 'abort', 'fail', 'ignore' or 'replace'");
        }
        tokens.next();
        return action == Statement.ConflictAction.ABORT ? null : action;
    }

    private static Statement.ConflictAction conflictAction(Token t) {
        for (Statement.ConflictAction action : Statement.ConflictAction.values()) {
            if (t.isWord(action.name().toLowerCase(Locale.ROOT))) {
                return action;
            }
        }
        return null;
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
        Statement.ConflictAction notNullConflict = null;
        Statement.ConflictAction primaryKeyConflict = null;
        while (true) {
            Token start = tokens.peek();
            String constraintName = tokens.acceptWord("constraint") ? tokens.identifier("a constraint name") : null;
            if (tokens.acceptWord("unique")) {
                Statement.ConflictAction conflict = conflictClause();
                constraints.add(new Statement.UniqueDef(constraintName,
                        List.of(new Statement.KeyColumn(name, false, first.span())), conflict, tokens.spanFrom(start)));
            } else if (tokens.acceptWord("check")) {
                constraints.add(check(constraintName, start));
            } else if (tokens.acceptWord("references")) {
                constraints.add(references(constraintName, List.of(name), start));
            } else if (tokens.acceptWord("not")) {
                tokens.expectWord("null");
                notNull = true;
                notNullConflict = conflictClause();
            } else if (tokens.acceptWord("null")) {
                notNull = false;
                nullDeclared = true;
                conflictClause(); // SQLite accepts one here too; a nullable column never conflicts
            } else if (tokens.acceptWord("primary")) {
                tokens.expectWord("key");
                primaryKey = true;
                descending = tokens.direction();
                primaryKeyConflict = conflictClause();
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
                constraints, nullDeclared, notNullConflict, primaryKeyConflict, tokens.spanFrom(first));
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

    private String moduleArgumentToken() {
        Token arg = tokens.peek();
        if (arg.kind() == TokenKind.EOF || arg.kind() == TokenKind.OPERATOR) {
            throw tokens.expected("a module argument");
        }
        return tokens.next().text();
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
                    String arg = moduleArgumentToken();
                    // name = value, as in using derby(collation = 'NOCASE'), reaches the module as "name=value".
                    args.add(tokens.acceptOperator("=") ? arg + "=" + moduleArgumentToken() : arg);
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
