package io.derive.bench;

import io.derive.engine.api.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the point benchmarks directly on small tables, to check that each measures the work it
 * claims to and that Derive and its Derby floor do the same work.
 */
class PointOpsBenchmarkTest {
    private static final int ROWS = 300;
    private static final int CALLS = 5;
    private static final String ALL_ITEMS = "select id, name, qty from item order by id";

    private final PointOpsBenchmark benchmark = new PointOpsBenchmark();
    private final PointOpsBenchmark.DeriveItems derive = new PointOpsBenchmark.DeriveItems();
    private final PointOpsBenchmark.DerbyItems derby = new PointOpsBenchmark.DerbyItems();

    @BeforeEach
    void openTrial() throws Exception {
        derive.rows = ROWS;
        derby.rows = ROWS;
        derive.open();
        derby.open();
    }

    @AfterEach
    void closeTrial() throws Exception {
        derive.close();
        derby.close();
    }

    @Test
    void bothSidesStartWithTheSameItems() throws Exception {
        List<List<Object>> deriveItems = deriveItems();

        assertThat(deriveItems).hasSize(ROWS).isEqualTo(derbyItems());
    }

    @Test
    void insertsAddTheSameRowsOnBothSides() throws Exception {
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.deriveInsertByKey(derive).updateCount()).isOne();
            assertThat(benchmark.derbyInsertByKey(derby)).isOne();
        }

        assertThat(deriveItems()).hasSize(ROWS + CALLS).isEqualTo(derbyItems());
    }

    @Test
    void selectsReadTheSameExistingRowOnBothSides() throws Exception {
        List<List<Object>> deriveRows = new ArrayList<>();
        List<List<Object>> derbyRows = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            Result result = benchmark.deriveSelectByKey(derive);
            assertThat(result.rows()).hasSize(1);
            deriveRows.addAll(ComparableRows.of(result));
            derbyRows.addAll(ComparableRows.of(benchmark.derbySelectByKey(derby)));
        }

        assertThat(deriveRows).isEqualTo(derbyRows);
    }

    @Test
    void removingInsertedRowsRestoresThePreloadedItemsOnBothSides() throws Exception {
        List<List<Object>> preloaded = deriveItems();
        for (int i = 0; i < CALLS; i++) {
            benchmark.deriveInsertByKey(derive);
            benchmark.derbyInsertByKey(derby);
        }

        derive.removeInsertedRows();
        derby.removeInsertedRows();

        assertThat(deriveItems()).isEqualTo(preloaded);
        assertThat(derbyItems()).isEqualTo(preloaded);
    }

    private List<List<Object>> deriveItems() {
        return ComparableRows.of(derive.session.execute(ALL_ITEMS));
    }

    private List<List<Object>> derbyItems() throws Exception {
        try (PreparedStatement query = derby.database.connection().prepareStatement(ALL_ITEMS)) {
            return ComparableRows.of(DerbyMemoryDatabase.rows(query, 3));
        }
    }
}
