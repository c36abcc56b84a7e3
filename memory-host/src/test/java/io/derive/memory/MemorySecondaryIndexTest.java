package io.derive.memory;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.HostSession;
import io.derive.engine.spi.HostedTable;
import io.derive.engine.spi.IndexShape;
import io.derive.engine.spi.RowCursor;
import io.derive.engine.spi.TableConnection;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The memory host's secondary indexes through the SPI: entries, order, visibility and savepoints. */
class MemorySecondaryIndexTest {
    private HostedTable table;

    @BeforeEach
    void createTable() {
        TableShape shape = new TableShape("main", "t", List.of(
                new TableShape.Column("k", SqlType.INTEGER, Collation.BINARY, true),
                new TableShape.Column("name", SqlType.TEXT, Collation.BINARY, false),
                new TableShape.Column("active", SqlType.INTEGER, Collation.BINARY, false)),
                List.of(new TableShape.KeyPart(0, false)));
        table = new MemoryTableModule().create(shape, List.of());
    }

    private static IndexShape byName(String indexName, boolean unique, Collation collation) {
        return new IndexShape(indexName, List.of(new IndexShape.Column(1, collation, false)), unique, null);
    }

    private static List<Long> keys(TableConnection c, String index, Object... prefix) {
        List<Long> keys = new ArrayList<>();
        try (RowCursor rows = c.scanIndex(index, prefix)) {
            rows.forEachRemaining(r -> keys.add((Long) r[0]));
        }
        return keys;
    }

    private void commitRows(Object[]... rows) {
        TableConnection c = table.connect(HostSession.DETACHED);
        for (Object[] row : rows) {
            c.put(row);
        }
        c.commit();
    }

    @Test
    void aNonUniqueIndexYieldsRowsInIndexThenKeyOrder() {
        commitRows(new Object[] {3L, "b", 1L}, new Object[] {1L, "b", 1L}, new Object[] {2L, "a", 1L});
        table.createIndex(byName("by_name", false, Collation.BINARY));
        TableConnection c = table.connect(HostSession.DETACHED);
        assertThat(keys(c, "by_name")).containsExactly(2L, 1L, 3L);
        assertThat(keys(c, "by_name", "b")).containsExactly(1L, 3L);
    }

    @Test
    void aDescendingScanYieldsTheSameRowsInExactlyTheReverseOrderPendingWritesIncluded() {
        commitRows(new Object[] {3L, "b", 1L}, new Object[] {1L, "b", 1L}, new Object[] {2L, "a", 1L},
                new Object[] {5L, "c", 1L});
        table.createIndex(byName("by_name", false, Collation.BINARY));
        TableConnection c = table.connect(HostSession.DETACHED);
        c.put(new Object[] {4L, "b", 1L});
        c.delete(new Object[] {1L});

        assertThat(keys(c, "by_name", "b")).containsExactly(3L, 4L);
        assertThat(descendingKeys(c, "by_name", "b")).containsExactly(4L, 3L);
        assertThat(descendingKeys(c, "by_name")).containsExactly(5L, 4L, 3L, 2L);
    }

    private static List<Long> descendingKeys(TableConnection c, String index, Object... prefix) {
        List<Long> keys = new ArrayList<>();
        try (RowCursor rows = c.scanIndex(index, prefix, true)) {
            rows.forEachRemaining(r -> keys.add((Long) r[0]));
        }
        return keys;
    }

    @Test
    void aUniqueIndexFindsTheOneRowOfAKey() {
        commitRows(new Object[] {1L, "a", 1L}, new Object[] {2L, "b", 1L});
        table.createIndex(byName("u_name", true, Collation.BINARY));
        assertThat(keys(table.connect(HostSession.DETACHED), "u_name", "b")).containsExactly(2L);
    }

    @Test
    void theIndexCollationDecidesEquality() {
        table.createIndex(byName("nocase_name", false, Collation.NOCASE));
        commitRows(new Object[] {1L, "Ann", 1L}, new Object[] {2L, "bob", 1L});
        assertThat(keys(table.connect(HostSession.DETACHED), "nocase_name", "ANN")).containsExactly(1L);
    }

    @Test
    void aPartialIndexHoldsOnlyTheRowsItsFilterAccepts() {
        table.createIndex(new IndexShape("active_names", List.of(new IndexShape.Column(1, Collation.BINARY, false)), true,
                row -> Long.valueOf(1L).equals(row[2])));
        commitRows(new Object[] {1L, "a", 0L}, new Object[] {2L, "a", 1L}, new Object[] {3L, "a", 0L});
        assertThat(keys(table.connect(HostSession.DETACHED), "active_names", "a")).containsExactly(2L);
    }

    @Test
    void pendingWritesAreVisibleToTheirConnectionOnly() {
        table.createIndex(byName("by_name", false, Collation.BINARY));
        commitRows(new Object[] {1L, "a", 1L});
        TableConnection writer = table.connect(HostSession.DETACHED);
        writer.put(new Object[] {2L, "a", 1L});
        writer.put(new Object[] {1L, "z", 1L});
        assertThat(keys(writer, "by_name", "a")).containsExactly(2L);
        assertThat(keys(writer, "by_name", "z")).containsExactly(1L);
        TableConnection reader = table.connect(HostSession.DETACHED);
        assertThat(keys(reader, "by_name", "a")).containsExactly(1L);
        writer.commit();
        assertThat(keys(table.connect(HostSession.DETACHED), "by_name", "a")).containsExactly(2L);
        assertThat(keys(table.connect(HostSession.DETACHED), "by_name", "z")).containsExactly(1L);
    }

    @Test
    void aDeletedRowLeavesTheIndex() {
        table.createIndex(byName("by_name", false, Collation.BINARY));
        commitRows(new Object[] {1L, "a", 1L}, new Object[] {2L, "a", 1L});
        TableConnection c = table.connect(HostSession.DETACHED);
        c.delete(new Object[] {1L});
        assertThat(keys(c, "by_name", "a")).containsExactly(2L);
        c.commit();
        assertThat(keys(table.connect(HostSession.DETACHED), "by_name", "a")).containsExactly(2L);
    }

    @Test
    void rollingBackToASavepointRestoresTheIndexEntries() {
        table.createIndex(byName("by_name", false, Collation.BINARY));
        commitRows(new Object[] {1L, "a", 1L});
        TableConnection c = table.connect(HostSession.DETACHED);
        c.savepoint(1);
        c.put(new Object[] {2L, "a", 1L});
        c.put(new Object[] {1L, "b", 1L});
        c.rollbackToSavepoint(1);
        assertThat(keys(c, "by_name", "a")).containsExactly(1L);
        assertThat(keys(c, "by_name", "b")).isEmpty();
    }

    @Test
    void anIndexCreatedAfterPendingWritesCoversThem() {
        commitRows(new Object[] {1L, "a", 1L});
        TableConnection c = table.connect(HostSession.DETACHED);
        c.put(new Object[] {2L, "a", 1L});
        c.delete(new Object[] {1L});
        table.createIndex(byName("late", false, Collation.BINARY));
        assertThat(keys(c, "late", "a")).containsExactly(2L);
        c.commit();
        assertThat(keys(table.connect(HostSession.DETACHED), "late", "a")).containsExactly(2L);
    }

    @Test
    void anIndexCreatedAfterASavepointSurvivesRollingBackToIt() {
        TableConnection c = table.connect(HostSession.DETACHED);
        c.put(new Object[] {1L, "a", 1L});
        c.savepoint(1);
        table.createIndex(byName("late", false, Collation.BINARY));
        c.put(new Object[] {2L, "a", 1L});
        c.rollbackToSavepoint(1);
        assertThat(keys(c, "late", "a")).containsExactly(1L);
    }

    @Test
    void replacingContentsRebuildsTheIndexes() {
        table.createIndex(byName("by_name", false, Collation.BINARY));
        commitRows(new Object[] {1L, "a", 1L});
        table.backingHost().orElseThrow().replaceContents(List.<Object[]>of(new Object[] {5L, "a", 1L}),
                () -> new IllegalStateException("duplicate"));
        assertThat(keys(table.connect(HostSession.DETACHED), "by_name", "a")).containsExactly(5L);
    }

    @Test
    void aDroppedIndexCannotBeScanned() {
        table.createIndex(byName("by_name", false, Collation.BINARY));
        table.dropIndex("BY_NAME");
        assertThatThrownBy(() -> keys(table.connect(HostSession.DETACHED), "by_name"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such index: by_name");
    }

    @Test
    void twoIndexesOfOneNameAreRefused() {
        table.createIndex(byName("by_name", false, Collation.BINARY));
        assertThatThrownBy(() -> table.createIndex(byName("By_Name", true, Collation.BINARY)))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("already exists");
    }
}
