package io.derive.engine.contract;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base of the host-independent behaviour suites: each host module runs them by subclassing
 * with its own {@link #config()}, so the same behaviour is pinned on every host.
 */
public abstract class HostContractTest {
    protected Database db;
    protected Session session;

    /** The configuration whose default host is the host under test. */
    protected abstract DatabaseConfig config();

    /**
     * Asserts that {@code other} does not see what this session has written but not committed
     * (or only prepared): it reads {@code query} as empty, on every host without waiting for this
     * session's transaction.
     */
    protected void assertUncommittedInvisibleTo(Session other, String query) {
        assertThat(rows(other, query)).isEmpty();
    }

    @BeforeEach
    void openDatabase() {
        db = Derive.open(config());
        session = db.openSession();
    }

    @AfterEach
    void closeDatabase() {
        session.close();
        db.close();
    }

    /** Runs every statement of a script, separated by semicolons at line ends. */
    protected void script(String sql) {
        for (String statement : sql.split(";\\s*\\n")) {
            if (!statement.isBlank()) {
                session.execute(statement);
            }
        }
    }

    protected List<List<Object>> rows(String query, Object... parameters) {
        return rows(session, query, parameters);
    }

    protected static List<List<Object>> rows(Session session, String query, Object... parameters) {
        Result result = session.execute(query, parameters);
        List<List<Object>> rows = new ArrayList<>();
        for (Row row : result.rows()) {
            rows.add(row.values());
        }
        return rows;
    }

    protected static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
