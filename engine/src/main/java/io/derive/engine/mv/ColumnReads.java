package io.derive.engine.mv;

import io.derive.engine.plan.ColumnOrigin;
import io.derive.engine.plan.NameResolutions;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.plan.Scope;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.ViewSchema;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;

import java.util.List;

/**
 * Whether a body reads one stored column, anywhere (select, where, join, subquery; semantics
 * §5: a type or collation change of such a column makes the MV stale). Learned by binding the
 * body and watching what its names resolve to ({@link NameResolutions}). A view the body reads
 * is bound from its own text, which reports nothing, so a body reading a view counts as reading
 * every column: staleness is then needless at worst, never missed.
 */
final class ColumnReads implements NameResolutions {
    private final ColumnOrigin column;
    private boolean reads;

    private ColumnReads(ColumnOrigin column) {
        this.column = column;
    }

    /** Whether the body of {@code mv}, bound against {@code catalog}, reads column {@code column} of {@code table}. */
    static boolean reads(TableSchema mv, Catalog catalog, TableSchema table, int column) {
        ColumnReads names = new ColumnReads(new ColumnOrigin(table.key(), column));
        try {
            new QueryBinder(catalog, mv.derivation().bodySql(), names).bind(mv.derivation().body());
        } catch (io.derive.engine.api.DeriveException noLongerPlans) {
            return true;
        }
        return names.reads;
    }

    @Override
    public void view(Select.NamedTable ref, ViewSchema view) {
        reads = true;
    }

    @Override
    public void column(Expr.ColumnRef ref, int depth, Scope.Entry entry) {
        note(entry);
    }

    @Override
    public void star(Select.Star star, List<Scope.Entry> entries) {
        entries.forEach(this::note);
    }

    @Override
    public void joinColumn(Select.Join join, String name, Scope.Entry left, Scope.Entry right) {
        note(left);
        note(right);
    }

    private void note(Scope.Entry entry) {
        if (column.equals(entry.column().origin())) {
            reads = true;
        }
    }
}
