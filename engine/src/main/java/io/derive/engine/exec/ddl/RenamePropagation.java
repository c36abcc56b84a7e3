package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.context.ExecutionContext;
import io.derive.engine.plan.ColumnOrigin;
import io.derive.engine.plan.OutputColumn;
import io.derive.engine.plan.PlanNode;
import io.derive.engine.plan.QueryBinder;
import io.derive.engine.schema.CanonicalDdl;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.Derivation;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.ViewSchema;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.SourceSpan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Carries a table or column rename into every body that names the renamed object (semantics §5,
 * MV-023): each view and maintained table reading it, directly or through other views and
 * maintained tables, gets its body text rewritten so that it reads the same rows under the new
 * names, and each maintained table among them is recompiled, so maintenance goes on and none goes
 * stale.
 *
 * <p>Bodies are visited producers first. A body is bound against the catalog before the rename
 * (its names resolve there), {@link RenamedReferences} picks the identifiers that resolved to
 * the renamed object, and the rewritten text is bound against the catalog after it, where the
 * bodies visited before are already rewritten; both bindings must resolve every name to the same
 * thing, or the rename is refused (a new name that another name would capture). A maintained
 * table's column that published the renamed column's name (an unaliased reference, a {@code *})
 * follows it, on reshaped storage, and the bodies reading that column follow in turn; an alias or
 * a column list keeps its name. The catalog does not keep a column list, so a maintained table's
 * column follows whenever its name is the one its body published before the rename (a list that
 * repeated the body's own names reads, after a reopen too, as no list). A view's output names are
 * not stored: they follow by themselves.
 * Like all DDL the result is the transaction's working catalog, so a rollback restores the old
 * names and bodies.
 */
final class RenamePropagation {
    private final ExecutionContext context;
    private final Catalog before;
    private final Renames renames;
    private final String refusal;
    private final SourceSpan at;
    private Catalog next;

    /** A view or maintained table whose body binds before the rename, and the objects it names. */
    private record Body(String key, ViewSchema view, TableSchema table, Set<String> named) {
    }

    private RenamePropagation(ExecutionContext context, Catalog before, Catalog next, Renames renames, String refusal,
                              SourceSpan at) {
        this.context = context;
        this.before = before;
        this.next = next;
        this.renames = renames;
        this.refusal = refusal;
        this.at = at;
    }

    /**
     * The catalog after {@code table} was renamed to {@code newName}, with the bodies that name it
     * rewritten.
     *
     * @param before the catalog before the rename, where the bodies bind as written
     * @param next   that catalog with the renamed table (and the foreign keys that follow it)
     */
    static Catalog tableRenamed(ExecutionContext context, Catalog before, Catalog next, TableSchema table, String newName,
                                SourceSpan at) {
        String refusal = "cannot rename table '" + table.qualifiedName() + "' to '" + newName + "'";
        return new RenamePropagation(context, before, next, Renames.table(table, newName), refusal, at).propagate(table);
    }

    /**
     * The catalog after column {@code column} of {@code table} was renamed to {@code newName},
     * with the bodies that read it rewritten.
     *
     * @param before the catalog before the rename, where the bodies bind as written
     * @param next   that catalog with the renamed table
     */
    static Catalog columnRenamed(ExecutionContext context, Catalog before, Catalog next, TableSchema table, int column,
                                 String newName, SourceSpan at) {
        String refusal = "cannot rename column " + table.columns().get(column).name() + " of '" + table.qualifiedName()
                + "' to " + newName;
        return new RenamePropagation(context, before, next, Renames.column(table, column, newName), refusal, at)
                .propagate(table);
    }

    private Catalog propagate(TableSchema renamed) {
        Map<String, Body> bodies = bodies();
        for (Body body : readersInOrder(renamed.key(), bodies)) {
            if (body.view() != null) {
                rewriteView(body.view());
            } else {
                rewriteMaintained(body.table());
            }
        }
        followStaleSources(bodies, renamed);
        return next;
    }

    // ---- which bodies, in which order

    /** Every view and maintained table whose body binds before the rename, by catalog key. */
    private Map<String, Body> bodies() {
        Map<String, Body> bodies = new LinkedHashMap<>();
        for (ViewSchema view : before.views()) {
            RenamedReferences names = RenamedReferences.reading();
            if (binds(view.bodySql(), view.body(), names)) {
                bodies.put(view.key(), new Body(view.key(), view, null, names.named()));
            }
        }
        for (TableSchema table : before.tables()) {
            if (table.isMaintained()) {
                RenamedReferences names = RenamedReferences.reading();
                if (binds(table.derivation().bodySql(), table.derivation().body(), names)) {
                    bodies.put(table.key(), new Body(table.key(), null, table, names.named()));
                }
            }
        }
        return bodies;
    }

    /** Whether a body that no longer plans (a stale view's, a view left broken by a drop) is left alone. */
    private boolean binds(String sql, Select body, RenamedReferences names) {
        try {
            new QueryBinder(before, sql, names).bind(body);
            return true;
        } catch (DeriveException noLongerPlans) {
            return false;
        }
    }

    /** The bodies that read {@code renamed}, directly or through others, each after every body it names. */
    private static List<Body> readersInOrder(String renamed, Map<String, Body> bodies) {
        Set<String> readers = new HashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Body b : bodies.values()) {
                if (!readers.contains(b.key()) && b.named().stream().anyMatch(n -> n.equals(renamed) || readers.contains(n))) {
                    readers.add(b.key());
                    grew = true;
                }
            }
        }
        Set<String> ordered = new LinkedHashSet<>();
        for (String key : readers) {
            visit(key, readers, bodies, ordered, new HashSet<>());
        }
        return ordered.stream().map(bodies::get).toList();
    }

    private static void visit(String key, Set<String> readers, Map<String, Body> bodies, Set<String> ordered,
                              Set<String> path) {
        if (ordered.contains(key) || !path.add(key)) {
            return;
        }
        for (String producer : bodies.get(key).named()) {
            if (readers.contains(producer)) {
                visit(producer, readers, bodies, ordered, path);
            }
        }
        ordered.add(key);
    }

    // ---- rewriting one body

    private void rewriteView(ViewSchema view) {
        String label = "view '" + view.qualifiedName() + "'";
        RenamedReferences names = RenamedReferences.rewriting(renames, view.bodySql());
        PlanNode old = new QueryBinder(before, view.bodySql(), names).bind(view.body());
        refuseJoinByName(names, label);
        String sql = names.rewrites() ? names.rewritten() : view.bodySql();
        Select body = names.rewrites() ? Parser.parseQuery(sql) : view.body();
        PlanNode now = rebound(sql, body, names, label);
        if (view.columnNames().isEmpty()) {
            refuseNewDuplicate(outputNames(old), outputNames(now), label);
        }
        if (names.rewrites()) {
            next = next.with(new ViewSchema(view.schema(), view.name(), view.columnNames(), sql, body, view.tags()));
        }
    }

    /**
     * Rewrites a maintained table's body, lets its columns follow the names the body now
     * publishes, and recompiles its maintenance against the renamed catalog (a stale one keeps
     * its detached maintenance and stays stale).
     */
    private void rewriteMaintained(TableSchema mv) {
        String label = "materialized view '" + mv.qualifiedName() + "'";
        Derivation derivation = mv.derivation();
        RenamedReferences names = RenamedReferences.rewriting(renames, derivation.bodySql());
        PlanNode old = new QueryBinder(before, derivation.bodySql(), names).bind(derivation.body());
        refuseJoinByName(names, label);
        String sql = names.rewrites() ? names.rewritten() : derivation.bodySql();
        Select body = names.rewrites() ? Parser.parseQuery(sql) : derivation.body();
        PlanNode now = rebound(sql, body, names, label);
        TableSchema current = next.tableByKey(mv.key()).orElse(mv);
        TableSchema followed = followOutputs(current, outputNames(old), outputNames(now), label);
        Derivation rebodied;
        if (derivation.stale()) {
            Set<String> sources = new HashSet<>();
            derivation.sources().forEach(s -> sources.add(renames.newKey(s)));
            rebodied = derivation.rebodied(sql, body, sources, derivation.maintenance());
        } else {
            try {
                rebodied = context.services().materializedViews().rebodied(followed, sql, next);
            } catch (DeriveException e) {
                throw refuse(DeriveException.INVALID_DEFINITION, label + " would no longer be maintained ("
                        + reason(e) + ")");
            }
        }
        next = next.replacing(current, followed.withDerivation(rebodied));
    }

    /**
     * {@code mv} with each column named as its body's output followed to that output's new name,
     * on storage reshaped to the new names; the same table when none follows. The followed
     * columns are renamed in turn for the bodies that read {@code mv}.
     */
    private TableSchema followOutputs(TableSchema mv, List<String> was, List<String> is, String label) {
        TableSchema renamed = mv;
        for (int i = 0; i < mv.columns().size(); i++) {
            String column = mv.columns().get(i).name();
            if (!was.get(i).equals(is.get(i)) && column.equalsIgnoreCase(was.get(i))) {
                Optional<String> refused = ColumnRename.refusal(next, mv, i);
                if (refused.isPresent()) {
                    throw refuse(DeriveException.FEATURE_NOT_SUPPORTED, label + " publishes it as column " + column
                            + ", which cannot follow: " + refused.get());
                }
                renamed = ColumnRename.renamed(renamed, i, is.get(i));
                renames.follow(new ColumnOrigin(mv.key(), i), is.get(i));
            }
        }
        if (renamed == mv) {
            return mv;
        }
        refuseNewDuplicate(mv.columnNames(), renamed.columnNames(), label);
        return TableReshape.reshaped(context.transaction(), mv, renamed, UnaryOperator.identity(), at);
    }

    /** The rewritten body bound after the rename; it must read what the body read before. */
    private PlanNode rebound(String sql, Select body, RenamedReferences written, String label) {
        RenamedReferences after = RenamedReferences.reading();
        PlanNode plan;
        try {
            plan = new QueryBinder(next, sql, after).bind(body);
        } catch (DeriveException e) {
            throw refuse(DeriveException.INVALID_DEFINITION, "the body of " + label + " would no longer plan ("
                    + reason(e) + ")");
        }
        if (!after.trace().equals(written.trace())) {
            throw refuse(DeriveException.INVALID_DEFINITION, "in the body of " + label
                    + " a name would then resolve to something else");
        }
        return plan;
    }

    // ---- stale bodies that no longer plan

    /**
     * A maintained table whose body no longer binds (it is stale) keeps its text, but its
     * sources follow a table rename, so dropping the renamed table still finds it.
     */
    private void followStaleSources(Map<String, Body> bodies, TableSchema renamed) {
        if (renames.newTableName(renamed.key()) == null) {
            return;
        }
        for (TableSchema table : before.tables()) {
            if (table.isMaintained() && !bodies.containsKey(table.key())
                    && table.derivation().sources().contains(renamed.key())) {
                Derivation d = table.derivation();
                Set<String> sources = new HashSet<>();
                d.sources().forEach(s -> sources.add(renames.newKey(s)));
                TableSchema current = next.tableByKey(table.key()).orElse(table);
                next = next.replacing(current, current.withDerivation(d.rebodied(d.bodySql(), d.body(), sources,
                        d.maintenance())));
            }
        }
    }

    // ---- refusals

    private void refuseJoinByName(RenamedReferences names, String label) {
        if (names.joinedByName() != null) {
            throw refuse(DeriveException.FEATURE_NOT_SUPPORTED, "the body of " + label + " joins on column "
                    + CanonicalDdl.identifier(names.joinedByName()) + " by name (USING or NATURAL), which cannot follow"
                    + " a rename of one side");
        }
    }

    /** Refuses names that publish a column twice where they did not before. */
    private void refuseNewDuplicate(List<String> was, List<String> is, String label) {
        Set<String> published = new HashSet<>();
        Set<String> duplicatedBefore = new HashSet<>();
        for (String name : was) {
            if (!published.add(name.toLowerCase(Locale.ROOT))) {
                duplicatedBefore.add(name.toLowerCase(Locale.ROOT));
            }
        }
        Set<String> seen = new HashSet<>();
        for (String name : is) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!seen.add(lower) && !duplicatedBefore.contains(lower)) {
                throw refuse(DeriveException.DUPLICATE_OBJECT, label + " already publishes a column named " + name);
            }
        }
    }

    private DeriveException refuse(String code, String why) {
        return at.error(code, refusal + ": " + why);
    }

    private static String reason(DeriveException e) {
        return e.getMessage().replaceFirst(" at \\d+:\\d+$", "");
    }

    private static List<String> outputNames(PlanNode plan) {
        List<String> names = new ArrayList<>();
        for (OutputColumn c : plan.columns()) {
            names.add(c.name());
        }
        return names;
    }
}
