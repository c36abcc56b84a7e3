package io.derive.engine.sql.ast;


import java.util.List;

/** A parsed statement. Every node knows its {@link SourceSpan}; {@code sql} holds the statement's text. */
public sealed interface Statement {

    SourceSpan span();

    /** {@code using name(args)}; null on a statement that names no host. */
    record HostClause(String module, List<String> arguments, SourceSpan span) {
        public HostClause {
            arguments = List.copyOf(arguments);
        }
    }

    /**
     * {@code constraints} holds the column's UNIQUE, CHECK and REFERENCES clauses, written as table
     * constraints on it; {@code nullDeclared} is true when the column says {@code null} explicitly,
     * which {@code pragma default_column_nullability = 'not_null'} respects. {@code notNullConflict}
     * and {@code primaryKeyConflict} are the {@code on conflict …} of its NOT NULL and PRIMARY KEY
     * clauses, null when none was written.
     */
    record ColumnDef(String name, String typeName, boolean notNull, boolean primaryKey,
                     boolean primaryKeyDescending, String collation, Expr defaultValue, List<TableConstraint> constraints,
                     boolean nullDeclared, ConflictAction notNullConflict, ConflictAction primaryKeyConflict,
                     SourceSpan span) {
        public ColumnDef {
            constraints = List.copyOf(constraints);
        }

        public ColumnDef(String name, String typeName, boolean notNull, boolean primaryKey,
                         boolean primaryKeyDescending, String collation, Expr defaultValue, List<TableConstraint> constraints,
                         SourceSpan span) {
            this(name, typeName, notNull, primaryKey, primaryKeyDescending, collation, defaultValue, constraints, false,
                    null, null, span);
        }

        public ColumnDef(String name, String typeName, boolean notNull, boolean primaryKey,
                         boolean primaryKeyDescending, String collation, Expr defaultValue, SourceSpan span) {
            this(name, typeName, notNull, primaryKey, primaryKeyDescending, collation, defaultValue, List.of(), span);
        }
    }

    /** A UNIQUE, CHECK or FOREIGN KEY clause of a table definition (or of one column, normalized to this form). */
    sealed interface TableConstraint {
        /** The name given by {@code constraint n}, or null. */
        String name();

        SourceSpan span();
    }

    /** {@code conflict} is the clause's {@code on conflict …}, null when none was written. */
    record UniqueDef(String name, List<KeyColumn> columns, ConflictAction conflict, SourceSpan span)
            implements TableConstraint {
        public UniqueDef {
            columns = List.copyOf(columns);
        }
    }

    /**
     * {@code check [on insert|update|delete, …] (condition)}: {@code operations} are the writes it
     * applies to (insert and update when no list is written), {@code sql} the condition's text as
     * written.
     */
    record CheckDef(String name, java.util.Set<RowOperation> operations, Expr condition, String sql, SourceSpan span)
            implements TableConstraint {
        public CheckDef {
            operations = java.util.Set.copyOf(operations);
        }
    }

    /** The kinds of row write a CHECK may be limited to. */
    enum RowOperation { INSERT, UPDATE, DELETE }

    /** {@code parentColumns} empty means the parent's primary key. */
    record ForeignKeyDef(String name, List<String> columns, QualifiedName parent, List<String> parentColumns,
                         ReferentialAction onDelete, ReferentialAction onUpdate, SourceSpan span) implements TableConstraint {
        public ForeignKeyDef {
            columns = List.copyOf(columns);
            parentColumns = List.copyOf(parentColumns);
        }
    }

    enum ReferentialAction { NO_ACTION, RESTRICT, CASCADE, SET_NULL, SET_DEFAULT }

    record KeyColumn(String name, boolean descending, SourceSpan span) {
    }

    /**
     * {@code primaryKey} holds a table-level primary key clause, empty when there is none, and
     * {@code primaryKeyConflict} its {@code on conflict …} (null when none was written);
     * {@code constraints} the table-level UNIQUE, CHECK and FOREIGN KEY clauses; {@code tags} the
     * trailing {@code with tags (…)} (of a maintained table too), empty when there is none.
     */
    record CreateTable(QualifiedName name, boolean ifNotExists, List<ColumnDef> columns,
                       List<KeyColumn> primaryKey, ConflictAction primaryKeyConflict, List<TableConstraint> constraints,
                       HostClause host, List<Tag> tags, SourceSpan span) implements Statement {
        public CreateTable {
            columns = List.copyOf(columns);
            primaryKey = List.copyOf(primaryKey);
            constraints = List.copyOf(constraints);
            tags = List.copyOf(tags);
        }

        public CreateTable(QualifiedName name, boolean ifNotExists, List<ColumnDef> columns,
                           List<KeyColumn> primaryKey, HostClause host, SourceSpan span) {
            this(name, ifNotExists, columns, primaryKey, null, List.of(), host, List.of(), span);
        }
    }

    /** {@code create [unique] index [if not exists] n on t (c [collate x] [asc|desc], …) [where …]}. */
    record CreateIndex(QualifiedName name, boolean unique, boolean ifNotExists, QualifiedName table,
                       List<IndexedColumn> columns, Expr where, SourceSpan span) implements Statement {
        public CreateIndex {
            columns = List.copyOf(columns);
        }
    }

    /** {@code collation} is null when the column's own applies. */
    record IndexedColumn(String name, String collation, boolean descending, SourceSpan span) {
    }

    record DropIndex(QualifiedName name, boolean ifExists, SourceSpan span) implements Statement {
    }

    /** {@code pragma name [= value]} (or {@code pragma name(value)}); {@code value} is null when reading. */
    record Pragma(String name, String value, SourceSpan span) implements Statement {
    }

    /**
     * {@code bodySql} is the body's text as written, which the catalog keeps; {@code tags} the
     * trailing {@code with tags (k = 'v', …)}, empty when there is none.
     */
    record CreateMaterializedView(QualifiedName name, boolean ifNotExists, List<String> columnNames,
                                  HostClause host, Select body, String bodySql, List<Tag> tags,
                                  SourceSpan span) implements Statement {
        public CreateMaterializedView {
            columnNames = List.copyOf(columnNames);
            tags = List.copyOf(tags);
        }

        public CreateMaterializedView(QualifiedName name, boolean ifNotExists, List<String> columnNames,
                                      HostClause host, Select body, String bodySql, SourceSpan span) {
            this(name, ifNotExists, columnNames, host, body, bodySql, List.of(), span);
        }
    }

    /**
     * One {@code key = <literal>} of a tag list: {@code value} is the literal's value of its own
     * type, a {@code String}, {@code Long}, finite {@code Double}, {@code Boolean} or null.
     */
    record Tag(String key, Object value, SourceSpan span) {
    }

    /**
     * {@code create table t (…) [using host(args)] maintained [(names)] as <select> [with tags (…)]}:
     * the table form of a maintained table (semantics §2). {@code table} is the declared part,
     * the tags among it; {@code columnNames} the optional rename list of the body's outputs.
     */
    record CreateMaintainedTable(CreateTable table, List<String> columnNames, Select body, String bodySql,
                                 SourceSpan span) implements Statement {
        public CreateMaintainedTable {
            columnNames = List.copyOf(columnNames);
        }
    }

    /** {@code alter view v <action>}: only tag changes ({@link PutTags}, {@link DropTags}). */
    record AlterView(QualifiedName name, ViewAction action, SourceSpan span) implements Statement {
    }

    /** {@code alter materialized view n <action>}. */
    record AlterMaterializedView(QualifiedName name, ViewAction action, SourceSpan span) implements Statement {
    }

    /** One change of an {@code alter materialized view} (or the tag change of another alter); {@code span} covers the action's text. */
    sealed interface ViewAction {
        SourceSpan span();
    }

    /** {@code set tags (…)} replaces every tag ({@code replace} true); {@code add tags (…)} adds or overwrites keys. */
    record PutTags(boolean replace, List<Tag> tags, SourceSpan span) implements ViewAction {
        public PutTags {
            tags = List.copyOf(tags);
        }
    }

    /** {@code drop tags (k, …)}. */
    record DropTags(List<String> keys, SourceSpan span) implements ViewAction {
        public DropTags {
            keys = List.copyOf(keys);
        }
    }

    /** {@code set refresh schedule '<cron>'}, or {@code drop refresh schedule} ({@code cron} null). */
    record RefreshSchedule(String cron, SourceSpan span) implements ViewAction {
    }

    /** {@code analyze [table]}: {@code table} null analyzes every table. */
    record Analyze(QualifiedName table, SourceSpan span) implements Statement {
    }

    enum ObjectKind {
        TABLE("table"), MATERIALIZED_VIEW("materialized view"), VIEW("view");

        private final String sql;

        ObjectKind(String sql) {
            this.sql = sql;
        }

        public String sql() {
            return sql;
        }
    }

    record Drop(ObjectKind kind, QualifiedName name, boolean ifExists, SourceSpan span) implements Statement {
    }

    /**
     * {@code refresh materialized view n}, whole and atomic ({@code step} null), or one step of a
     * chunked refresh run: {@code start run 'r'}, {@code continue run 'r' limit k},
     * {@code finish run 'r'}, {@code cancel}.
     */
    record RefreshMaterializedView(QualifiedName name, RunStep step, SourceSpan span) implements Statement {
    }

    /** A step of a chunked refresh run; {@code run} is null for {@link Phase#CANCEL}, {@code limit} is 0 but for {@link Phase#CONTINUE}. */
    record RunStep(Phase phase, String run, long limit) {
        public enum Phase { START, CONTINUE, FINISH, CANCEL }
    }

    /**
     * {@code rehydrate materialized view n}: refills n, left pending by a deferred rehydrate,
     * from its body, and makes it readable when that commits.
     */
    record RehydrateMaterializedView(QualifiedName name, SourceSpan span) implements Statement {
    }

    /** {@code verify materialized view n [repair]}. */
    /** {@code verify materialized view n [repair] [where …]}; {@code where} is null when the whole view is verified. */
    record VerifyMaterializedView(QualifiedName name, boolean repair, Expr where, SourceSpan span) implements Statement {
    }

    /**
     * What {@code or …} (and {@code replace into}) says to do when a row violates a constraint, and
     * what a constraint's own {@code on conflict …} says when the statement has no {@code or …}.
     */
    enum ConflictAction { ABORT, FAIL, IGNORE, REPLACE, ROLLBACK }

    /**
     * At most one of {@code rows} (a values list) and {@code select} is given; neither means
     * {@code default values}. {@code onConflict} is the statement's {@code or …} action, null
     * when none was written (abort); {@code upsert} the {@code on conflict … do …} clause or
     * null; {@code returning} empty when there is no {@code returning} clause.
     */
    record Insert(QualifiedName table, List<String> columns, List<List<Expr>> rows, Select select,
                  ConflictAction onConflict, Upsert upsert, List<Select.SelectItem> returning,
                  SourceSpan span) implements Statement {
        public Insert {
            columns = List.copyOf(columns);
            rows = rows == null ? null : rows.stream().map(List::copyOf).toList();
            returning = List.copyOf(returning);
        }

        public Insert(QualifiedName table, List<String> columns, List<List<Expr>> rows, Select select, SourceSpan span) {
            this(table, columns, rows, select, null, null, List.of(), span);
        }
    }

    /**
     * {@code on conflict [(target) [where …]] do nothing | do update set … [where …]}: an empty
     * {@code target} applies to any uniqueness conflict; {@code assignments} empty means do nothing.
     */
    record Upsert(List<KeyColumn> target, Expr targetWhere, List<Assignment> assignments, Expr where,
                  SourceSpan span) {
        public Upsert {
            target = List.copyOf(target);
            assignments = List.copyOf(assignments);
        }

        public boolean doNothing() {
            return assignments.isEmpty();
        }
    }

    record Assignment(String column, Expr value, SourceSpan span) {
    }

    record Update(QualifiedName table, IndexHint hint, List<Assignment> assignments, Expr where, ConflictAction onConflict,
                  List<Select.SelectItem> returning, SourceSpan span) implements Statement {
        public Update {
            assignments = List.copyOf(assignments);
            returning = List.copyOf(returning);
        }

        public Update(QualifiedName table, List<Assignment> assignments, Expr where, SourceSpan span) {
            this(table, IndexHint.ANY, assignments, where, null, List.of(), span);
        }
    }

    record Delete(QualifiedName table, IndexHint hint, Expr where, List<Select.SelectItem> returning, SourceSpan span) implements Statement {
        public Delete {
            returning = List.copyOf(returning);
        }

        public Delete(QualifiedName table, Expr where, SourceSpan span) {
            this(table, IndexHint.ANY, where, List.of(), span);
        }
    }

    record Query(Select select, SourceSpan span) implements Statement {
    }

    /** {@code explain statement}: shows the plan (and, for a materialized view, its maintenance arm). */
    record Explain(Statement statement, SourceSpan span) implements Statement {
    }

    record Begin(SourceSpan span) implements Statement {
    }

    record Commit(SourceSpan span) implements Statement {
    }

    record Rollback(SourceSpan span) implements Statement {
    }

    // ---- savepoints, views and alter table

    /** {@code savepoint name}. */
    record Savepoint(String name, SourceSpan span) implements Statement {
    }

    /** {@code release [savepoint] name}. */
    record Release(String name, SourceSpan span) implements Statement {
    }

    /** {@code rollback [transaction] to [savepoint] name}. */
    record RollbackTo(String name, SourceSpan span) implements Statement {
    }

    /**
     * {@code create [temp] view [if not exists] v [(c1, …)] as select … [with tags (…)]};
     * {@code bodySql} is the select's text as written, which the catalog keeps.
     */
    record CreateView(QualifiedName name, boolean temporary, boolean ifNotExists, List<String> columnNames,
                      Select body, String bodySql, List<Tag> tags, SourceSpan span) implements Statement {
        public CreateView {
            columnNames = List.copyOf(columnNames);
            tags = List.copyOf(tags);
        }
    }

    /** {@code alter table t <action>}. */
    record AlterTable(QualifiedName table, AlterAction action, SourceSpan span) implements Statement {
    }

    /** One change of an {@code alter table}; {@code span} covers the action's text. */
    sealed interface AlterAction {
        SourceSpan span();
    }

    record RenameTable(String newName, SourceSpan span) implements AlterAction {
    }

    record AddColumn(ColumnDef column, SourceSpan span) implements AlterAction {
    }

    record DropColumn(String column, SourceSpan span) implements AlterAction {
    }

    record RenameColumn(String column, String newName, SourceSpan span) implements AlterAction {
    }

    /** {@code alter column c set not null} ({@code notNull} true) or {@code drop not null}. */
    record SetColumnNotNull(String column, boolean notNull, SourceSpan span) implements AlterAction {
    }

    record SetColumnType(String column, String typeName, SourceSpan span) implements AlterAction {
    }

    record SetColumnCollation(String column, String collation, SourceSpan span) implements AlterAction {
    }

    /** {@code add [constraint name] unique|check|foreign key …}. */
    record AddConstraint(TableConstraint constraint, SourceSpan span) implements AlterAction {
    }

    /** {@code drop constraint name}. */
    record DropConstraint(String name, SourceSpan span) implements AlterAction {
    }

    /**
     * {@code attach start run 'r' maintained [(names)] as <select>}, {@code attach continue run 'r'
     * limit k}, {@code attach finish run 'r'}, {@code attach cancel}: a step of a chunked attach
     * run (semantics §9). {@code derivation} and its text {@code definition} (from
     * {@code maintained} on) are null but for the start.
     */
    record AttachStep(RunStep step, SetMaintained derivation, String definition, SourceSpan span) implements AlterAction {
    }

    /** {@code set maintained [(names)] as <select>}: attaches or swaps a derivation (semantics §2). */
    record SetMaintained(List<String> columnNames, Select body, String bodySql, SourceSpan span) implements AlterAction {
        public SetMaintained {
            columnNames = List.copyOf(columnNames);
        }
    }

    /** {@code drop maintained}: detaches the derivation, keeping the rows. */
    record DropMaintained(SourceSpan span) implements AlterAction {
    }

    /**
     * {@code set|add|drop tags (…)} written after {@code alter table}: the tags of a plain table;
     * refused on a maintained table with a pointer to {@code alter materialized view}.
     */
    record TableTags(ViewAction change, SourceSpan span) implements AlterAction {
    }
}
