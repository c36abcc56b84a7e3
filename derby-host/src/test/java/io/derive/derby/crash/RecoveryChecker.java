package io.derive.derby.crash;

import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.RehydrateReport;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What must hold in a database reopened after a kill: every workload table holds exactly what
 * the model says (which covers every acknowledged commit being there, nothing uncommitted being
 * there, and the transaction in doubt being there entirely or not at all), every materialized
 * view equals its body, and rehydrate adopted or refilled each view as semantics §8 says, with
 * the view's own counters agreeing; the index of {@code items} is taken as Derby kept it, not
 * rebuilt, and a seek through it finds exactly the model's rows.
 */
final class RecoveryChecker {
    private final Database database;
    private final Session session;
    private final List<String> problems = new ArrayList<>();

    private RecoveryChecker(Database database, Session session) {
        this.database = database;
        this.session = session;
    }

    /**
     * The problems found, empty when all is well.
     *
     * @param expectUncleanClose whether the killed child had got as far as opening the database
     *                           (after which the clean-close marker must say it did not close)
     */
    static List<String> check(Database database, Session session, WorkloadState expected, boolean expectUncleanClose) {
        RecoveryChecker checker = new RecoveryChecker(database, session);
        checker.checkReport(expectUncleanClose);
        checker.checkTables(expected);
        checker.checkViews();
        checker.checkIndex(expected);
        return checker.problems;
    }

    private void checkReport(boolean expectUncleanClose) {
        RehydrateReport report = database.rehydrateReport();
        if (expectUncleanClose && report.lastCloseClean()) {
            problems.add("rehydrate report says the last close was clean, but the last process was killed");
        }
        if (expectUncleanClose) {
            // No row count stored at the killed open's start holds any more: each Derby table is counted afresh.
            List<String> counted = report.storage().stream().filter(r -> r.work() == RehydrateReport.Work.COUNTED)
                    .map(RehydrateReport.Repair::table).toList();
            if (!counted.containsAll(CrashSchema.DERBY_TABLES)) {
                problems.add("after a kill, rehydrate counted only " + counted + ", not every one of " + CrashSchema.DERBY_TABLES);
            }
        }
        Map<String, RehydrateReport.Action> expected = CrashSchema.expectedActions();
        Map<String, RehydrateReport.Outcome> found = new HashMap<>();
        report.views().forEach(o -> found.put(o.name(), o));
        for (Map.Entry<String, RehydrateReport.Action> e : expected.entrySet()) {
            RehydrateReport.Outcome outcome = found.get(e.getKey());
            if (outcome == null) {
                problems.add("rehydrate report has no outcome for " + e.getKey());
            } else if (outcome.action() != e.getValue()) {
                problems.add("rehydrate " + outcome.action() + " " + e.getKey() + " (" + outcome.reason()
                        + "); the rules say " + e.getValue());
            }
        }
        if (!expected.keySet().containsAll(found.keySet())) {
            problems.add("rehydrate report names views the workload never created: " + found.keySet());
        }
    }

    private void checkTables(WorkloadState expected) {
        for (String table : List.of("items", "details", "log", CrashSchema.VOLATILE_TABLE)) {
            compare("table " + table, RowBag.of(expected.rowsOf(table)), WorkloadState.selectAll(table));
        }
    }

    /** Each view against its body as a plain query, then its counters against the report. */
    private void checkViews() {
        Map<String, RehydrateReport.Action> expected = CrashSchema.expectedActions();
        for (CrashSchema.View view : CrashSchema.VIEWS) {
            RowBag body;
            try {
                body = RowBag.of(session.execute(view.body()));
            } catch (DeriveException e) {
                problems.add("the body of " + view.name() + " fails as a query: " + e.getMessage());
                continue;
            }
            compare("materialized view " + view.name() + " against its body", body, "select * from " + view.name());
        }
        for (Row row : session.execute("select name, stale, row_count, body_evaluations from materialized_views()").rows()) {
            String name = (String) row.get(0);
            if (Boolean.TRUE.equals(row.get(1))) {
                problems.add(name + " is stale after the reopen");
            }
            long rows = ((Number) session.execute("select count(*) from " + name).rows().get(0).get(0)).longValue();
            if (((Number) row.get(2)).longValue() != rows) {
                problems.add("materialized_views() says " + name + " has " + row.get(2) + " rows; it has " + rows);
            }
            long evaluations = ((Number) row.get(3)).longValue();
            if (expected.get(name) == RehydrateReport.Action.ADOPTED && evaluations != 0) {
                problems.add(name + " was reported adopted but its body ran " + evaluations + " times");
            }
        }
    }

    /** Derby writes index entries in its table's transactions, so a kill leaves them current: a reopen reattaches them. */
    private void checkIndex(WorkloadState expected) {
        database.rehydrateReport().storage().stream()
                .filter(r -> r.work() == RehydrateReport.Work.REBUILT && CrashSchema.DERBY_TABLES.contains(r.table()))
                .forEach(r -> problems.add("rehydrate rebuilt index " + r.index() + " of " + r.table() + " (" + r.reason() + ")"));
        String seek = "select id, grp, amount, txn from items where grp = ";
        List<String> plan = session.execute("explain " + seek + "0").rows().stream().map(r -> ((String) r.get(0)).strip()).toList();
        if (plan.stream().noneMatch(line -> line.startsWith("seek main.items by index " + CrashSchema.INDEX))) {
            problems.add("a select on items.grp does not seek " + CrashSchema.INDEX + ": " + plan);
            return;
        }
        java.util.Set<Object> groups = new java.util.TreeSet<>();
        expected.rowsOf("items").forEach(row -> groups.add(row.get(1)));
        for (Object group : groups) {
            compare("index " + CrashSchema.INDEX + " at grp " + group,
                    RowBag.of(expected.rowsOf("items").stream().filter(row -> row.get(1).equals(group)).toList()), seek + group);
        }
    }

    private void compare(String what, RowBag expected, String select) {
        try {
            String difference = expected.differenceFrom(RowBag.of(session.execute(select)));
            if (difference != null) {
                problems.add(what + ": " + difference);
            }
        } catch (DeriveException e) {
            problems.add(what + ": '" + select + "' failed: " + e.getMessage());
        }
    }
}
