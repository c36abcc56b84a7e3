package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code savepoint}, {@code release} and {@code rollback to} with SQLite's semantics. */
public abstract class SavepointContract extends HostContractTest {

    @BeforeEach
    void table() {
        script("create table t (k integer primary key)");
    }

    private java.util.List<java.util.List<Object>> keys() {
        return rows("select k from t");
    }

    @Test
    void rollbackToUndoesWorkSinceTheSavepointAndKeepsItOpen() {
        script("""
                begin;
                insert into t values (1);
                savepoint a;
                insert into t values (2);
                rollback to a;
                insert into t values (3);
                rollback to savepoint a;
                insert into t values (4);
                commit;
                """);
        assertThat(keys()).containsExactly(row(1L), row(4L));
    }

    @Test
    void releaseKeepsTheWork() {
        script("""
                begin;
                savepoint a;
                insert into t values (1);
                release a;
                commit;
                """);
        assertThat(keys()).containsExactly(row(1L));
    }

    @Test
    void aSavepointOutsideATransactionStartsOneThatReleaseCommits() {
        session.execute("savepoint a");
        assertThat(session.inTransaction()).isTrue();
        session.execute("insert into t values (1)");
        try (Session other = db.openSession()) {
            assertUncommittedInvisibleTo(other, "select k from t");
            session.execute("release savepoint a");
            assertThat(session.inTransaction()).isFalse();
            assertThat(rows(other, "select k from t")).containsExactly(row(1L));
        }
    }

    @Test
    void releasingAnInnerSavepointDoesNotCommit() {
        script("""
                savepoint outer_sp;
                insert into t values (1);
                savepoint inner_sp;
                insert into t values (2);
                release inner_sp;
                """);
        assertThat(session.inTransaction()).isTrue();
        session.execute("rollback to outer_sp");
        session.execute("release outer_sp");
        assertThat(keys()).isEmpty();
    }

    @Test
    void aSavepointInsideBeginDoesNotCommitOnRelease() {
        script("""
                begin;
                savepoint a;
                insert into t values (1);
                release a;
                """);
        assertThat(session.inTransaction()).isTrue();
        session.execute("rollback");
        assertThat(keys()).isEmpty();
    }

    @Test
    void rollbackToAnOuterSavepointForgetsTheInnerOnes() {
        script("""
                begin;
                savepoint a;
                insert into t values (1);
                savepoint b;
                insert into t values (2);
                rollback to a;
                """);
        assertThatThrownBy(() -> session.execute("release b")).hasMessageContaining("no such savepoint: b");
        session.execute("commit");
        assertThat(keys()).isEmpty();
    }

    @Test
    void theInnermostSavepointOfARepeatedNameWins() {
        script("""
                begin;
                savepoint a;
                insert into t values (1);
                savepoint a;
                insert into t values (2);
                rollback to a;
                commit;
                """);
        assertThat(keys()).containsExactly(row(1L));
    }

    @Test
    void anUnknownSavepointIsAnErrorNamingIt() {
        assertThatThrownBy(() -> session.execute("rollback to nope"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such savepoint: nope at 1:1");
        session.execute("begin");
        assertThatThrownBy(() -> session.execute("release nope")).hasMessageContaining("no such savepoint: nope");
        assertThat(session.inTransaction()).isTrue();
    }

    @Test
    void savepointNamesAreCaseInsensitive() {
        script("""
                begin;
                savepoint Mark;
                insert into t values (1);
                rollback transaction to savepoint MARK;
                commit;
                """);
        assertThat(keys()).isEmpty();
    }

    @Test
    void commitForgetsTheSavepoints() {
        script("""
                begin;
                savepoint a;
                commit;
                """);
        assertThatThrownBy(() -> session.execute("rollback to a")).hasMessageContaining("no such savepoint: a");
    }
}
