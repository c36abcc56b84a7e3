package io.derive.bench;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.PreparedStatement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the P3 benchmark methods directly on small tables, with their untimed steps around them as
 * JMH runs them, to check that each side does the work it claims to: after every kind of write
 * the Derive views equal their bodies, the trigger-kept tables equal the same bodies, and the two
 * sides hold the same rows.
 */
class DerbyTriggerMaintenanceBenchmarkTest {
    private static final int ROWS = 200;
    private static final int ROWS_PER_GROUP = 10;
    private static final int CALLS = 25;

    private final DerbyTriggerMaintenanceBenchmark benchmark = new DerbyTriggerMaintenanceBenchmark();
    private DerbyTriggerMaintenanceBenchmark.DeriveTables derive;
    private DerbyTriggerMaintenanceBenchmark.DerbyTables derby;

    @AfterEach
    void closeTrial() throws Exception {
        if (derive != null) {
            derive.close();
        }
        if (derby != null) {
            derby.close();
        }
    }

    @Test
    void insertsPutBackTheFreedRowsAndBothSidesKeepTheSameViews() throws Exception {
        DerbyTriggerMaintenanceBenchmark.DeriveKeyFree deriveRow = new DerbyTriggerMaintenanceBenchmark.DeriveKeyFree();
        DerbyTriggerMaintenanceBenchmark.DerbyKeyFree derbyRow = new DerbyTriggerMaintenanceBenchmark.DerbyKeyFree();
        open(deriveRow, derbyRow);

        for (int i = 0; i < CALLS; i++) {
            deriveRow.removeRow();
            assertThat(benchmark.insertDeriveViews(deriveRow).updateCount()).isOne();
            derbyRow.removeRow();
            assertThat(benchmark.insertDerbyTriggers(derbyRow)).isOne();
        }

        assertBothSidesKeepTheirViews(ROWS);
    }

    @Test
    void updatesChangeOneRowAndBothSidesKeepTheSameViews() throws Exception {
        open(new DerbyTriggerMaintenanceBenchmark.DeriveTables(), new DerbyTriggerMaintenanceBenchmark.DerbyTables());

        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.updateByKeyDeriveViews(derive).updateCount()).isOne();
            assertThat(benchmark.updateByKeyDerbyTriggers(derby)).isOne();
        }

        assertBothSidesKeepTheirViews(ROWS);
        assertThat(deriveRows("select id from src where v <> id")).hasSize(CALLS);
    }

    @Test
    void deletesRemoveOneRowEachAndBothSidesKeepTheSameViews() throws Exception {
        DerbyTriggerMaintenanceBenchmark.DeriveRowToDelete deriveRow = new DerbyTriggerMaintenanceBenchmark.DeriveRowToDelete();
        DerbyTriggerMaintenanceBenchmark.DerbyRowToDelete derbyRow = new DerbyTriggerMaintenanceBenchmark.DerbyRowToDelete();
        open(deriveRow, derbyRow);

        for (int i = 0; i < CALLS; i++) {
            deriveRow.chooseRow();
            assertThat(benchmark.deleteByKeyDeriveViews(deriveRow).updateCount()).isOne();
            derbyRow.chooseRow();
            assertThat(benchmark.deleteByKeyDerbyTriggers(derbyRow)).isOne();
        }
        assertBothSidesKeepTheirViews(ROWS - CALLS);

        deriveRow.restoreRow();
        derbyRow.restoreRow();
        assertBothSidesKeepTheirViews(ROWS - CALLS + 1);
    }

    @Test
    void aDeleteOfAGroupsLastRowRemovesTheGroupOnBothSides() throws Exception {
        open(new DerbyTriggerMaintenanceBenchmark.DeriveTables(), new DerbyTriggerMaintenanceBenchmark.DerbyTables());
        int groups = ROWS / ROWS_PER_GROUP;

        for (long key = 0; key < ROWS; key += groups) {
            derive.deleteRow(key);
            derby.deleteRow(key);
        }

        assertBothSidesKeepTheirViews(ROWS - ROWS_PER_GROUP);
        assertThat(deriveRows("select g from src_groups where g = 0")).isEmpty();
    }

    @Test
    void anUpdateThatMovesARowToAnotherGroupKeepsBothSidesEqual() throws Exception {
        open(new DerbyTriggerMaintenanceBenchmark.DeriveTables(), new DerbyTriggerMaintenanceBenchmark.DerbyTables());
        String move = "update src set g = ? where id = ?";

        derive.session.execute(move, 1_000L, 3L);
        try (PreparedStatement p = derby.database.connection().prepareStatement(move)) {
            p.setLong(1, 1_000L);
            p.setLong(2, 3L);
            assertThat(p.executeUpdate()).isOne();
        }

        assertBothSidesKeepTheirViews(ROWS);
    }

    @Test
    void writesVisitEveryPreloadedKeyOncePerRound() {
        List<Long> keys = java.util.stream.LongStream.range(0, ROWS)
                .mapToObj(n -> DerbyTriggerMaintenanceBenchmark.key(n, ROWS)).distinct().toList();

        assertThat(keys).hasSize(ROWS).allSatisfy(k -> assertThat(k).isBetween(0L, (long) ROWS - 1));
    }

    /** Sets both sides' trials up as JMH would before their first invocation. */
    private void open(DerbyTriggerMaintenanceBenchmark.DeriveTables deriveState,
                      DerbyTriggerMaintenanceBenchmark.DerbyTables derbyState) throws Exception {
        deriveState.rows = ROWS;
        deriveState.rowsPerGroup = ROWS_PER_GROUP;
        derbyState.rows = ROWS;
        derbyState.rowsPerGroup = ROWS_PER_GROUP;
        deriveState.open();
        derive = deriveState;
        derbyState.open();
        derby = derbyState;
    }

    private void assertBothSidesKeepTheirViews(int sourceRows) throws Exception {
        String projection = "select id, v from src_projection order by id";
        String groups = "select g, n, total from src_groups order by g";
        String projectionBody = DerbyTriggerMaintenanceBenchmark.PROJECTION_BODY + " order by id";
        String groupBody = DerbyTriggerMaintenanceBenchmark.GROUP_BODY + " order by g";

        assertThat(deriveRows(projection)).hasSize(sourceRows).isEqualTo(deriveRows(projectionBody));
        assertThat(deriveRows(groups)).isNotEmpty().isEqualTo(deriveRows(groupBody));
        assertThat(derbyRows(projection, 2)).isEqualTo(derbyRows(projectionBody, 2)).isEqualTo(deriveRows(projection));
        assertThat(derbyRows(groups, 3)).isEqualTo(derbyRows(groupBody, 3)).isEqualTo(deriveRows(groups));
    }

    private List<List<Object>> deriveRows(String sql) {
        return ComparableRows.of(derive.session.execute(sql));
    }

    private List<List<Object>> derbyRows(String sql, int columns) throws Exception {
        try (PreparedStatement p = derby.database.connection().prepareStatement(sql)) {
            return ComparableRows.of(DerbyMemoryDatabase.rows(p, columns));
        }
    }
}
