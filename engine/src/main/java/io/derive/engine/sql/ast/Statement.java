package io.derive.engine.sql.ast;

import io.derive.engine.sql.SourceSpan;

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

    record ColumnDef(String name, String typeName, boolean notNull, boolean primaryKey,
                     boolean primaryKeyDescending, String collation, Expr defaultValue, SourceSpan span) {
    }

    record KeyColumn(String name, boolean descending, SourceSpan span) {
    }

    /** {@code primaryKey} holds a table-level primary key clause, empty when there is none. */
    record CreateTable(QualifiedName name, boolean ifNotExists, List<ColumnDef> columns,
                       List<KeyColumn> primaryKey, HostClause host, SourceSpan span) implements Statement {
        public CreateTable {
            columns = List.copyOf(columns);
            primaryKey = List.copyOf(primaryKey);
        }
    }

    /** {@code bodySql} is the body's text as written, which the catalog keeps. */
    record CreateMaterializedView(QualifiedName name, boolean ifNotExists, List<String> columnNames,
                                  HostClause host, Select body, String bodySql, SourceSpan span) implements Statement {
        public CreateMaterializedView {
            columnNames = List.copyOf(columnNames);
        }
    }

    enum ObjectKind {
        TABLE("table"), MATERIALIZED_VIEW("materialized view");

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

    record RefreshMaterializedView(QualifiedName name, SourceSpan span) implements Statement {
    }

    /** Exactly one of {@code rows} (a values list) and {@code select} is given. */
    record Insert(QualifiedName table, List<String> columns, List<List<Expr>> rows, Select select,
                  SourceSpan span) implements Statement {
        public Insert {
            columns = List.copyOf(columns);
            rows = rows == null ? null : rows.stream().map(List::copyOf).toList();
        }
    }

    record Assignment(String column, Expr value, SourceSpan span) {
    }

    record Update(QualifiedName table, List<Assignment> assignments, Expr where, SourceSpan span) implements Statement {
        public Update {
            assignments = List.copyOf(assignments);
        }
    }

    record Delete(QualifiedName table, Expr where, SourceSpan span) implements Statement {
    }

    record Query(Select select, SourceSpan span) implements Statement {
    }

    record Begin(SourceSpan span) implements Statement {
    }

    record Commit(SourceSpan span) implements Statement {
    }

    record Rollback(SourceSpan span) implements Statement {
    }
}
