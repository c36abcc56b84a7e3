package io.derive.engine.scenario;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the bad-input corpus ({@code scenarios/bad-input/corpus.txt}) against one database set up
 * by {@code setup.sql}: every entry must fail with a {@link DeriveException} (never another
 * throwable, a stack overflow included) whose message contains one of its fragments and names no
 * {@code java.*} class; a syntax error must carry its line and column; and the database must be
 * unchanged afterwards (every fixture table and view dumped before and after). A host module runs
 * it with a five-line subclass giving its {@link #config()}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BadInputSuite {
    private static final Pattern JAVA_CLASS = Pattern.compile("\\bjava[x]?\\.[a-z]+\\.|[A-Z]\\w*(Exception|Error)\\b");
    private static final Pattern CREATED = Pattern.compile("create\\s+(?:table|materialized\\s+view)\\s+(\\w+)",
            Pattern.CASE_INSENSITIVE);

    private Database db;
    private Session session;
    private final List<String> fixtureTables = new ArrayList<>();

    /** The configuration whose default host is the host under test. */
    protected abstract DatabaseConfig config();

    @BeforeAll
    void openFixture() {
        db = Derive.open(config());
        session = db.openSession();
        for (String statement : resource("scenarios/bad-input/setup.sql").split(";\\s*\\n")) {
            if (!statement.isBlank()) {
                session.execute(statement);
                Matcher m = CREATED.matcher(statement);
                if (m.find()) {
                    fixtureTables.add(m.group(1));
                }
            }
        }
    }

    @AfterAll
    void closeFixture() {
        session.close();
        db.close();
    }

    @TestFactory
    List<DynamicTest> everyBadInputFailsCleanly() {
        List<DynamicTest> tests = new ArrayList<>();
        for (BadInput entry : BadInput.parse(resource("scenarios/bad-input/corpus.txt"))) {
            tests.add(DynamicTest.dynamicTest(entry.title(), () -> run(entry)));
        }
        return tests;
    }

    private void run(BadInput entry) {
        if (entry.pending() == null) {
            check(entry);
            return;
        }
        try {
            check(entry);
        } catch (AssertionError e) {
            Assumptions.abort("pending: " + entry.pending() + " — " + e.getMessage().lines().findFirst().orElse(""));
        }
        Assumptions.abort("pending corpus entry at line " + entry.line() + " passes now: remove 'pending: "
                + entry.pending() + "'");
    }

    private void check(BadInput entry) {
        String before = dump();
        String sql = entry.sql();
        String where = "corpus line " + entry.line() + " (" + entry.title() + ")";
        DeriveException error = null;
        try {
            session.execute(sql);
        } catch (DeriveException e) {
            error = e;
        } catch (Throwable e) {
            // A StackOverflowError or any other escape is exactly what this suite exists to catch.
            throw new AssertionFailedError(where + ": threw " + e.getClass().getName() + " instead of a DeriveException");
        } finally {
            if (session.inTransaction()) {
                session.rollback();
            }
        }
        if (error == null) {
            throw new AssertionFailedError(where + ": was accepted; expected an error containing " + entry.fragments());
        }
        String message = error.getMessage();
        String lower = message.toLowerCase(Locale.ROOT);
        if (entry.fragments().stream().noneMatch(f -> lower.contains(f.toLowerCase(Locale.ROOT)))) {
            throw new AssertionFailedError(where + ": message does not contain " + entry.fragments() + ": "
                    + abbreviate(message), String.join(" || ", entry.fragments()), message);
        }
        if (JAVA_CLASS.matcher(message).find()) {
            throw new AssertionFailedError(where + ": message names a Java class: " + abbreviate(message));
        }
        if (DeriveException.SYNTAX.equals(error.code()) && message.startsWith("syntax error")
                && (error.line() <= 0 || error.column() <= 0)) {
            throw new AssertionFailedError(where + ": syntax error without a position: " + abbreviate(message));
        }
        String after = dump();
        if (!before.equals(after)) {
            throw new AssertionFailedError(where + ": the failed statement changed the database", before, after);
        }
    }

    /** Every fixture table and view with its rows in a stable order, plus the catalog if it can be listed. */
    private String dump() {
        StringBuilder out = new StringBuilder();
        for (String table : fixtureTables) {
            out.append(table).append(":\n");
            try {
                List<String> rows = new ArrayList<>();
                for (Row row : session.execute("select * from " + table).rows()) {
                    rows.add(row.values().toString());
                }
                rows.sort(null);
                rows.forEach(r -> out.append("  ").append(r).append('\n'));
            } catch (DeriveException e) {
                out.append("  unreadable: ").append(e.getMessage()).append('\n');
            }
        }
        try {
            Result catalog = session.execute("select type, name from schema()");
            List<String> entries = new ArrayList<>();
            for (Row row : catalog.rows()) {
                entries.add(row.values().toString());
            }
            entries.sort(null);
            out.append("catalog: ").append(entries).append('\n');
        } catch (DeriveException e) {
            // schema() is not there yet on every engine version; the tables above still count.
        }
        return out.toString();
    }

    private static String abbreviate(String message) {
        return message.length() > 300 ? message.substring(0, 300) + "…" : message;
    }

    private static String resource(String name) {
        try (InputStream in = BadInputSuite.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no classpath resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
