package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.derive.client.DeriveConnection;
import io.derive.engine.api.DeriveException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@code statementCacheSize} property reaches the database's sessions, and a negative one is refused by name. */
class StatementCacheSizePropertyTest {
    private final DeriveResourceAdapter adapter = new DeriveResourceAdapter();
    private final DeriveManagedConnectionFactory factory = new DeriveManagedConnectionFactory();

    @BeforeEach
    void start() throws Exception {
        adapter.start(null);
        factory.setDatabaseName("statement-cache");
        factory.setResourceAdapter(adapter);
    }

    @AfterEach
    void stop() {
        adapter.stop();
    }

    @Test
    void theDatabaseIsOpenedWithTheConfiguredSize() {
        factory.setStatementCacheSize(5);

        assertThat(factory.databaseConfig().statementCacheSize()).isEqualTo(5);
    }

    @Test
    void byDefaultAConnectionKeepsSixtyFourTexts() throws Exception {
        assertThat(factory.databaseConfig().statementCacheSize()).isEqualTo(64);
        try (DeriveConnection c = (DeriveConnection) factory.createManagedConnection(null, null).getConnection(null, null)) {
            c.execute("create table t (k integer primary key)");
            c.execute("insert into t values (?)", 1);
            c.execute("insert into t values (?)", 2);

            assertThat(c.query("select count(*) from t")).singleElement()
                    .satisfies(row -> assertThat(row.values()).containsExactly(2L));
        }
    }

    @Test
    void aNegativeSizeIsRefusedNamingTheProperty() {
        factory.setStatementCacheSize(-1);

        assertThatThrownBy(() -> factory.createManagedConnection(null, null))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("statementCacheSize")
                .hasMessageContaining("must be 0 or more, not -1");
    }
}
