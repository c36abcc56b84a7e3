package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A session keeps the texts it ran parsed, and a query's plan while the schema stays as it was
 * ({@code DatabaseConfig.statementCacheSize}): running the same text again answers exactly what
 * a first run of it would, whatever changed in between — rows, parameters, the schema, a schema
 * change rolled back.
 */
public abstract class StatementTextReuseContract extends HostContractTest {
    private static final String ALL = "select * from t order by k";

    @BeforeEach
    void schema() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'a'), (2, 'b');
                """);
    }

    @Test
    void theSameTextWithOtherParametersReadsOtherRows() {
        assertThat(rows("select v from t where k = ?", 1)).containsExactly(row("a"));
        assertThat(rows("select v from t where k = ?", 2)).containsExactly(row("b"));
    }

    @Test
    void theSameQueryAgainReadsTheRowsWrittenSince() {
        assertThat(rows("select count(*) from t")).containsExactly(row(2L));
        session.execute("insert into t values (?, ?)", 3, "c");
        session.execute("insert into t values (?, ?)", 4, "d");

        assertThat(rows("select count(*) from t")).containsExactly(row(4L));
    }

    @Test
    void theSameQueryAfterAColumnWasAddedReturnsTheNewColumn() {
        assertThat(session.execute(ALL).columns()).containsExactly("k", "v");
        session.execute("alter table t add column w text default 'z'");

        Result again = session.execute(ALL);

        assertThat(again.columns()).containsExactly("k", "v", "w");
        assertThat(rows(ALL)).containsExactly(row(1L, "a", "z"), row(2L, "b", "z"));
    }

    @Test
    void theSameQueryAfterItsTableWasDroppedFailsAsAFirstRunWould() {
        rows(ALL);
        session.execute("drop table t");

        assertThatThrownBy(() -> session.execute(ALL))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such table: t")
                .hasMessageContaining("1:15");
    }

    @Test
    void theSameQueryAfterItsTableWasMadeAgainReadsTheNewTable() {
        rows(ALL);
        script("""
                drop table t;
                create table t (k integer primary key, n integer);
                insert into t values (7, 70);
                """);

        assertThat(session.execute(ALL).columns()).containsExactly("k", "n");
        assertThat(rows(ALL)).containsExactly(row(7L, 70L));
    }

    @Test
    void theSameQueryAfterASchemaChangeWasRolledBackSeesTheSchemaBeforeIt() {
        session.execute("begin");
        session.execute("alter table t add column w integer");
        assertThat(session.execute(ALL).columns()).containsExactly("k", "v", "w");
        session.execute("rollback");

        assertThat(session.execute(ALL).columns()).containsExactly("k", "v");
    }

    @Test
    void theSameWriteAfterAConstraintWasAddedObeysIt() {
        String insert = "insert into t values (?, ?)";
        session.execute(insert, 3, "c");
        script("""
                delete from t;
                drop table t;
                create table t (k integer primary key, v text check (v <> 'x'));
                """);

        assertThatThrownBy(() -> session.execute(insert, 4, "x"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("CHECK constraint failed");
        assertThat(rows(ALL)).isEmpty();
    }

    @Test
    void theSameTextReadsAViewAsItsBodyNowIs() {
        script("""
                create view w as select k from t;
                """);
        assertThat(rows("select * from w order by 1")).containsExactly(row(1L), row(2L));
        script("""
                drop view w;
                create view w as select v from t;
                """);

        assertThat(rows("select * from w order by 1")).containsExactly(row("a"), row("b"));
    }

    @Test
    void aTextThatFailsToParseFailsAgainTheSameWay() {
        String broken = "select k frm t";
        assertThatThrownBy(() -> session.execute(broken)).isInstanceOf(DeriveException.class)
                .satisfies(first -> assertThatThrownBy(() -> session.execute(broken))
                        .hasMessage(first.getMessage()));
    }
}
