package io.derive.memory;

import io.derive.engine.scenario.Expectation;
import io.derive.engine.scenario.RowComparison;
import io.derive.engine.scenario.ScenarioCase;
import io.derive.engine.scenario.ScenarioResources;
import io.derive.engine.scenario.ScenarioStep;
import io.derive.engine.scenario.ValueText;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the scenario files honest: every case not marked {@code -- derive-only} is run on SQLite,
 * and its expected rows and counts must be SQLite's results (an expected error only needs SQLite
 * to fail too, since the wording is Derive's). Pending cases are checked as well, so a feature's
 * cases are right before the feature lands.
 */
class ScenarioOracleTest {

    @TestFactory
    List<DynamicTest> expectationsAreWhatSqliteReturns() {
        List<DynamicTest> tests = new ArrayList<>();
        for (ScenarioCase c : ScenarioResources.load("scenarios")) {
            tests.add(DynamicTest.dynamicTest(c.file() + " / " + c.name(), () -> check(c)));
        }
        return tests;
    }

    private static void check(ScenarioCase c) throws SQLException {
        Assumptions.assumeTrue(c.deriveOnly() == null, () -> "derive-only: " + c.deriveOnly());
        try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            for (ScenarioStep step : c.steps()) {
                check(c, step, sqlite);
            }
        }
    }

    private static void check(ScenarioCase c, ScenarioStep step, Connection sqlite) {
        String where = c.file() + ":" + step.line() + " in case '" + c.name() + "': " + step.sql();
        Expectation expectation = step.expectation();
        try (Statement statement = sqlite.createStatement()) {
            boolean hasRows = statement.execute(step.sql());
            if (expectation instanceof Expectation.Error) {
                throw new AssertionFailedError(where + "\nSQLite succeeds where the case expects an error");
            }
            if (expectation instanceof Expectation.Count count && statement.getUpdateCount() != count.count()) {
                throw new AssertionFailedError(where + "\nSQLite reports count " + statement.getUpdateCount()
                        + ", the case expects " + count.count());
            }
            if (expectation instanceof Expectation.Rows rows) {
                List<List<String>> actual = hasRows ? rows(statement.getResultSet()) : List.of();
                if (!RowComparison.matches(rows, actual)) {
                    throw new AssertionFailedError(where + "\nexpected:\n" + RowComparison.table(rows.rows())
                            + "SQLite returns:\n" + RowComparison.table(actual));
                }
            }
        } catch (SQLException e) {
            if (!(expectation instanceof Expectation.Error)) {
                throw new AssertionFailedError(where + "\nSQLite fails: " + e.getMessage());
            }
        }
    }

    private static List<List<String>> rows(ResultSet rs) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            List<Object> values = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                Object v = rs.getObject(i);
                values.add(v instanceof Integer k ? Long.valueOf(k) : v);
            }
            rows.add(ValueText.renderRow(values));
        }
        return rows;
    }
}
