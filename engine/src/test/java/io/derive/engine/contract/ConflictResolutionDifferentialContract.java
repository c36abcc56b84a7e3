package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Row;
import io.derive.engine.scenario.ValueText;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SQLite's constraint conflict clauses, differentially: every constraint kind (a primary key and
 * a UNIQUE, each in column and table form, NOT NULL with and without a default, a table CHECK,
 * and two constraints a row breaks at once) declared with each {@code on conflict} resolution
 * (or none), broken by an insert and by an update under each {@code or …} of the statement (or
 * none), on Derive and on SQLite. The statement breaks the constraint in its second row, after a
 * row it writes cleanly, inside a transaction that already holds a write, so that abort, fail,
 * ignore, replace and rollback all leave different traces. Derive must fail exactly when SQLite
 * does, with SQLite's constraint message, end the transaction exactly when SQLite does, and hold
 * SQLite's rows before and after the commit.
 */
public abstract class ConflictResolutionDifferentialContract extends HostContractTest {

    private static final List<String> RESOLUTIONS = List.of("", "abort", "fail", "ignore", "replace", "rollback");
    private static final String SEED = "insert into t (k, a, n, v) values (1, 10, 1, 'a'), (2, 20, 2, 'b')";
    private static final String IN_TRANSACTION = "insert into t (k, a, n, v) values (3, 30, 3, 'c')";

    /**
     * One way of declaring a constraint: the table's DDL with {@code {c}} where the conflict
     * clause goes, the row an insert breaks it with (between two clean rows), and the update
     * assignments that break it for row 2 (the update writes rows 1, 2 and 3 in key order).
     */
    private record Kind(String name, String ddl, String breakingRow, String breakingUpdate) {
    }

    private static final List<Kind> KINDS = List.of(
            new Kind("primary key (column)", "k integer primary key{c}, a integer, n integer, v text",
                    "(1, 41, 5, 'e')", "k = case k when 2 then 1 else k end"),
            new Kind("primary key (table, two columns)", "k integer, a integer, n integer, v text, primary key (k, a){c}",
                    "(1, 10, 5, 'e')", "k = case k when 2 then 1 else k end, a = case k when 2 then 10 else a end"),
            new Kind("unique (column)", "k integer primary key, a integer unique{c}, n integer, v text",
                    "(5, 10, 5, 'e')", "a = case k when 2 then 10 else a end"),
            new Kind("unique (table, two columns)", "k integer primary key, a integer, n integer, v text, unique (a, n){c}",
                    "(5, 10, 1, 'e')", "a = case k when 2 then 10 else a end, n = case k when 2 then 1 else n end"),
            new Kind("not null with a default", "k integer primary key, a integer, n integer not null{c} default 7, v text",
                    "(5, 50, null, 'e')", "n = case k when 2 then null else n end"),
            new Kind("not null without a default", "k integer primary key, a integer, n integer not null{c}, v text",
                    "(5, 50, null, 'e')", "n = case k when 2 then null else n end"),
            new Kind("check (table)", "k integer primary key, a integer, n integer, v text, check (n > 0){c}",
                    "(5, 50, -1, 'e')", "n = case k when 2 then -1 else n end"),
            new Kind("unique beside a unique on conflict ignore",
                    "k integer primary key, a integer unique{c}, n integer unique on conflict ignore, v text",
                    "(5, 10, 1, 'e')", "a = case k when 2 then 10 else a end, n = case k when 2 then 1 else n end"),
            new Kind("primary key beside a unique on conflict replace",
                    "k integer primary key{c}, a integer unique on conflict replace, n integer, v text",
                    "(1, 20, 5, 'e')", "k = case k when 2 then 1 else k end, a = case k when 2 then 30 else a end"),
            new Kind("not null beside a check",
                    "k integer primary key, a integer, n integer not null{c} default -7, v text, check (n > 0)",
                    "(5, 50, null, 'e')", "n = case k when 2 then null else n end"));

    private Connection sqlite;
    private String created;

    @BeforeEach
    void openSqlite() throws SQLException {
        sqlite = DriverManager.getConnection("jdbc:sqlite::memory:");
    }

    @AfterEach
    void closeSqlite() throws SQLException {
        sqlite.close();
    }

    @TestFactory
    List<DynamicContainer> everyKindUnderEveryResolutionAndOverrideDoesWhatSqliteDoes() {
        List<DynamicContainer> kinds = new ArrayList<>();
        for (Kind kind : KINDS) {
            for (String declared : RESOLUTIONS) {
                String ddl = "create table t (" + kind.ddl().replace("{c}", declared.isEmpty() ? "" : " on conflict " + declared) + ")";
                List<DynamicTest> statements = new ArrayList<>();
                for (String override : RESOLUTIONS) {
                    String or = override.isEmpty() ? "" : " or " + override;
                    String insert = "insert" + or + " into t (k, a, n, v) values (4, 40, 4, 'd'), " + kind.breakingRow()
                            + ", (6, 60, 6, 'f')";
                    String update = "update" + or + " t set v = v || '+', " + kind.breakingUpdate();
                    for (String statement : List.of(insert, update)) {
                        statements.add(DynamicTest.dynamicTest(statement, () -> compare(ddl, statement)));
                    }
                }
                kinds.add(DynamicContainer.dynamicContainer(ddl, statements));
            }
        }
        return kinds;
    }

    /** What one side did: the statement's error (null when it succeeded), whether the transaction survived, the rows. */
    private record Outcome(String error, boolean transactionOpen, List<List<String>> during, List<List<String>> after) {
    }

    private void compare(String ddl, String statement) throws SQLException {
        Outcome expected = sqlite(ddl, statement);
        Outcome actual = derive(ddl, statement);
        String where = ddl + ";\n" + SEED + ";\nbegin;\n" + IN_TRANSACTION + ";\n" + statement + ";";
        if (expected.error() == null) {
            assertThat(actual.error()).as("Derive fails where SQLite succeeds:\n" + where).isNull();
        } else {
            assertThat(actual.error()).as("Derive succeeds where SQLite fails with " + expected.error() + ":\n" + where)
                    .isNotNull();
            assertThat(actual.error().toLowerCase(Locale.ROOT)).as(where)
                    .contains(expected.error().toLowerCase(Locale.ROOT));
        }
        assertThat(actual.transactionOpen()).as("transaction still open after:\n" + where)
                .isEqualTo(expected.transactionOpen());
        assertThat(actual.during()).as("rows before the commit:\n" + where).isEqualTo(expected.during());
        assertThat(actual.after()).as("rows after the commit:\n" + where).isEqualTo(expected.after());
    }

    private Outcome derive(String ddl, String statement) {
        // the cases of one declaration run in a row: the table is made once and emptied between them
        if (ddl.equals(created)) {
            session.execute("delete from t");
        } else {
            session.execute("drop table if exists t");
            session.execute(ddl);
            created = ddl;
        }
        session.execute(SEED);
        session.begin();
        session.execute(IN_TRANSACTION);
        String error = null;
        try {
            session.execute(statement);
        } catch (DeriveException e) {
            error = e.getMessage();
        }
        boolean open = session.inTransaction();
        List<List<String>> during = deriveRows();
        if (open) {
            session.commit();
        }
        return new Outcome(error, open, during, deriveRows());
    }

    private List<List<String>> deriveRows() {
        List<List<String>> rows = new ArrayList<>();
        for (Row row : session.execute("select k, a, n, v from t order by k, a").rows()) {
            rows.add(ValueText.renderRow(row.values()));
        }
        return rows;
    }

    private static final Pattern SQLITE_MESSAGE = Pattern.compile("\\(([A-Z ]+ constraint failed: [^)]*)\\)");

    private Outcome sqlite(String ddl, String statement) throws SQLException {
        try (Statement s = sqlite.createStatement()) {
            s.execute("drop table if exists t");
            s.execute(ddl);
            s.execute(SEED);
            s.execute("begin");
            s.execute(IN_TRANSACTION);
            String error = null;
            try {
                s.execute(statement);
            } catch (SQLException e) {
                Matcher m = SQLITE_MESSAGE.matcher(e.getMessage());
                error = m.find() ? m.group(1) : e.getMessage();
            }
            List<List<String>> during = sqliteRows(s);
            boolean open = true;
            try {
                s.execute("commit");
            } catch (SQLException noTransaction) {
                open = false;
            }
            return new Outcome(error, open, during, sqliteRows(s));
        }
    }

    private static List<List<String>> sqliteRows(Statement s) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("select k, a, n, v from t order by k, a")) {
            while (rs.next()) {
                List<Object> values = new ArrayList<>();
                for (int i = 1; i <= 4; i++) {
                    Object v = rs.getObject(i);
                    values.add(v instanceof Integer k ? Long.valueOf(k) : v);
                }
                rows.add(ValueText.renderRow(values));
            }
        }
        return rows;
    }
}
