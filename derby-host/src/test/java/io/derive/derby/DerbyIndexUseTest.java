package io.derive.derby;

import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.SessionResources;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The index proof of the Derby host: the statements it issues for a point lookup and for an
 * ordered prefix scan ({@code scanEffective}) are served by Derby's primary-key index — Derby's
 * runtime statistics for them show an index scan, and neither a table scan nor a sort.
 */
class DerbyIndexUseTest {
    private final DerbyTableModule module = new DerbyTableModule();
    private final SessionResources session = new SessionResources("index proof");
    private TableConnection connection;
    private Connection jdbc;

    @BeforeEach
    void tableWithTwoPartKey() {
        TableShape shape = new TableShape("main", "orders", List.of(
                new TableShape.Column("customer", SqlType.INTEGER, Collation.BINARY, true),
                new TableShape.Column("id", SqlType.INTEGER, Collation.BINARY, true),
                new TableShape.Column("note", SqlType.TEXT, Collation.BINARY, false)),
                List.of(new TableShape.KeyPart(0, false), new TableShape.KeyPart(1, false)));
        HostedTable table = module.create(shape, List.of());
        TableConnection writer = table.connect(session);
        for (long customer = 1; customer <= 50; customer++) {
            for (long id = 1; id <= 20; id++) {
                writer.put(new Object[]{customer, id, "n" + id});
            }
        }
        // the rows reach Derby when their transaction commits
        writer.prepare();
        writer.commit();
        connection = table.connect(session);
        jdbc = module.session(session).connection();
    }

    @AfterEach
    void close() {
        connection.rollback();
        session.close();
        module.close();
    }

    @Test
    void pointLookupIsAnIndexSeek() throws SQLException {
        String plan = planOf(() -> assertThat(connection.get(new Object[]{7L, 3L})).isPresent());
        assertThat(plan).contains("where \"$key\" = ?").contains("Index Scan ResultSet").doesNotContain("Table Scan").doesNotContain("Sort ResultSet");
    }

    @Test
    void prefixScanIsAnOrderedIndexRangeScan() throws SQLException {
        List<Object> ids = new ArrayList<>();
        String plan = planOf(() -> {
            try (RowCursor rows = connection.table().backingHost().orElseThrow()
                    .scanEffective(connection, new Object[]{7L}, false)) {
                rows.forEachRemaining(r -> ids.add(r[1]));
            }
        });
        assertThat(ids).hasSize(20).startsWith(1L, 2L, 3L).endsWith(20L);
        assertThat(plan).contains("\"$key\" >= ? and \"$key\" < ?").contains("Index Scan ResultSet")
                .doesNotContain("Table Scan").doesNotContain("Sort ResultSet");
    }

    @Test
    void theTableIsReadableWithDerbysOwnSqlInTypedColumns() throws SQLException {
        String table = ((DerbyTable) connection.table()).qualifiedDerbyName();
        try (Statement s = jdbc.createStatement();
             ResultSet rs = s.executeQuery("select \"customer\", \"id\", \"note\" from " + table + " where \"customer\" = 7 and \"id\" = 3")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(7L);
            assertThat(rs.getLong(2)).isEqualTo(3L);
            assertThat(rs.getString(3)).isEqualTo("n3");
        }
    }

    /** Derby's runtime statistics of the last statement the session's connection ran inside {@code work}. */
    private String planOf(Runnable work) throws SQLException {
        try (Statement s = jdbc.createStatement()) {
            s.execute("call syscs_util.syscs_set_runtimestatistics(1)");
        }
        work.run();
        try (CallableStatement c = jdbc.prepareCall("values syscs_util.syscs_get_runtimestatistics()");
             ResultSet rs = c.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }
}
