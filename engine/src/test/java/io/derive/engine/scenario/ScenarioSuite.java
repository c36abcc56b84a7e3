package io.derive.engine.scenario;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the scenario files of {@code src/test/resources/scenarios} (see {@link ScenarioFileParser}
 * for the format): one dynamic test per case, grouped by file, each on a fresh database of the
 * host under test. A host module runs the suite with a five-line subclass giving its
 * {@link #config()}.
 *
 * <p>A case with an {@code -- expect: delta} runs on the host's modules wrapped by a
 * {@link BackingChangeLog}, cleared before each statement, so a statement's delta is exactly what
 * the backings reported while it ran.
 *
 * <p>A case marked {@code -- pending: feature} still runs: if it fails it is reported as skipped
 * with that reason; if it passes it is skipped too, saying the marker can go (with
 * {@code -Dderive.scenarios.strictPending=true} a passing pending case fails instead, so a lead
 * can find them all). {@code -Dderive.scenarios.file=joins.sql} runs one file only.
 */
public abstract class ScenarioSuite {
    private static final System.Logger LOG = System.getLogger(ScenarioSuite.class.getName());

    /** The configuration whose default host is the host under test. */
    protected abstract DatabaseConfig config();

    @TestFactory
    List<DynamicNode> scenarios() {
        Map<String, List<DynamicNode>> byFile = new LinkedHashMap<>();
        String onlyFile = System.getProperty("derive.scenarios.file");
        for (ScenarioCase c : ScenarioResources.load("scenarios")) {
            if (onlyFile != null && !c.file().equals(onlyFile)) {
                continue;
            }
            byFile.computeIfAbsent(c.file(), f -> new ArrayList<>())
                    .add(DynamicTest.dynamicTest(c.file() + " / " + c.name(), () -> run(c)));
        }
        List<DynamicNode> files = new ArrayList<>();
        byFile.forEach((file, tests) -> files.add(DynamicContainer.dynamicContainer(file, tests)));
        return files;
    }

    private void run(ScenarioCase c) {
        if (c.pending() == null) {
            execute(c);
            return;
        }
        try {
            execute(c);
        } catch (AssertionError e) {
            Assumptions.abort("pending: " + c.pending() + " — " + firstLine(e.getMessage()));
        }
        String message = "pending case " + c.location() + " passes now: remove '-- pending: " + c.pending() + "'";
        LOG.log(System.Logger.Level.INFO, message);
        if (Boolean.getBoolean("derive.scenarios.strictPending")) {
            throw new AssertionFailedError(message);
        }
        Assumptions.abort(message);
    }

    private void execute(ScenarioCase c) {
        // Only a case that pins deltas runs on wrapped modules; every other runs on the host as it is.
        BackingChangeLog log = c.steps().stream().anyMatch(s -> !s.deltas().isEmpty()) ? new BackingChangeLog() : null;
        DatabaseConfig config = log == null ? config() : log.around(config());
        try (Database db = Derive.open(config); Session session = db.openSession()) {
            for (ScenarioStep step : c.steps()) {
                if (log != null) {
                    log.clear();
                }
                check(c, step, session, config.defaultHost());
                if (log != null) {
                    checkDeltas(c, step, log);
                }
            }
        }
    }

    private static void checkDeltas(ScenarioCase c, ScenarioStep step, BackingChangeLog log) {
        for (ExpectedDelta delta : step.deltas()) {
            if (!log.knows(delta)) {
                throw failure(c, step, "delta " + delta.view(),
                        "no backing named '" + delta.view() + "': no table of that name was created in this case");
            }
            List<ExpectedDelta.Change> actual = log.changesOf(delta);
            if (!ExpectedDelta.matches(delta.changes(), actual)) {
                String expected = "delta " + delta.view() + "\n" + ExpectedDelta.table(delta.changes());
                String reported = "delta " + delta.view() + "\n" + ExpectedDelta.table(actual);
                throw new AssertionFailedError(c.file() + ":" + step.line() + " in case '" + c.name() + "': "
                        + firstLine(step.sql()) + "\nexpected: " + expected + "but got:  " + reported
                        + "difference (- expected, not reported; + reported, not expected):\n"
                        + ExpectedDelta.difference(delta.changes(), actual), expected, reported);
            }
        }
    }

    /** {@code {host}} in an expected cell stands for the default host of the run, for cases that show it (canonical DDL). */
    private static final String HOST = "{host}";

    private static void check(ScenarioCase c, ScenarioStep step, Session session, String host) {
        Result result;
        try {
            result = session.execute(step.sql());
        } catch (DeriveException e) {
            if (step.expectation() instanceof Expectation.Error error) {
                if (!e.getMessage().toLowerCase().contains(error.fragment().toLowerCase())) {
                    throw failure(c, step, "error containing '" + error.fragment() + "'", "error: " + e.getMessage());
                }
                return;
            }
            throw failure(c, step, describe(step.expectation()), "error [" + e.code() + "]: " + e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            throw failure(c, step, describe(step.expectation()), "non-Derive exception " + e);
        }
        if (step.columns() != null && !lower(step.columns()).equals(lower(result.columns()))) {
            throw failure(c, step, "columns " + step.columns(), "columns " + result.columns());
        }
        Expectation expectation = step.expectation();
        if (expectation instanceof Expectation.Error error) {
            throw failure(c, step, "error containing '" + error.fragment() + "'", render(result));
        }
        if (expectation instanceof Expectation.Count count && result.updateCount() != count.count()) {
            throw failure(c, step, "count " + count.count(), "count " + result.updateCount());
        }
        if (expectation instanceof Expectation.Rows written) {
            Expectation.Rows rows = new Expectation.Rows(written.ordered(), written.rows().stream()
                    .map(r -> r.stream().map(cell -> cell.replace(HOST, host)).toList()).toList());
            List<List<String>> actual = new ArrayList<>();
            for (Row row : result.rows()) {
                actual.add(ValueText.renderRow(row.values()));
            }
            if (!RowComparison.matches(rows, actual)) {
                throw failure(c, step, RowComparison.table(rows.rows()), RowComparison.table(actual));
            }
        }
    }

    private static String render(Result result) {
        List<List<String>> rows = new ArrayList<>();
        for (Row row : result.rows()) {
            rows.add(ValueText.renderRow(row.values()));
        }
        return result.columns().isEmpty() ? "count " + result.updateCount() : "rows\n" + RowComparison.table(rows);
    }

    private static String describe(Expectation e) {
        if (e instanceof Expectation.Rows rows) {
            return "rows\n" + RowComparison.table(rows.rows());
        }
        if (e instanceof Expectation.Count count) {
            return "count " + count.count();
        }
        return "success";
    }

    private static List<String> lower(List<String> names) {
        return names.stream().map(String::toLowerCase).toList();
    }

    private static AssertionFailedError failure(ScenarioCase c, ScenarioStep step, String expected, String actual) {
        return new AssertionFailedError(c.file() + ":" + step.line() + " in case '" + c.name() + "': "
                + firstLine(step.sql()) + "\nexpected: " + expected + "\nbut got:  " + actual, expected, actual);
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int nl = text.indexOf('\n');
        String first = nl < 0 ? text : text.substring(0, nl) + " …";
        return first.length() > 200 ? first.substring(0, 200) + " …" : first;
    }
}
