package io.derive.engine.contract;

import io.derive.engine.api.CommitVote;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Declared constraints of a maintained table hold for its derived rows (semantics §6). */
public abstract class DerivedRowConstraintContract extends HostContractTest {

    @BeforeEach
    void tables() {
        script("""
                create table p (id integer primary key);
                create table t (k integer primary key, v text not null, n integer, owner integer);
                insert into p values (1);
                insert into t values (1, 'a', 1, 1), (2, 'b', 2, null);
                create table m (k integer primary key, v text not null, n integer, owner integer references p (id),
                                constraint positive check (n > 0), constraint one_v unique (v))
                  maintained as select k, v, n, owner from t;
                """);
    }

    @Test
    void aDerivedRowFailingACheckFailsTheSourceWrite() {
        assertThatThrownBy(() -> session.execute("insert into t values (3, 'c', -1, null)"))
                .hasMessageContaining("CHECK constraint failed: positive (n > 0) — row derived into maintained table 'main.m' violates its declared constraint");
        assertThat(rows("select count(*) from t")).containsExactly(row(2L));
    }

    @Test
    void aDerivedRowCollidingOnAUniqueConstraintFailsTheSourceWrite() {
        assertThatThrownBy(() -> session.execute("insert into t values (3, 'a', 3, null)"))
                .hasMessageContaining("collides on its declared UNIQUE constraint");
        assertThat(rows("select count(*) from m")).containsExactly(row(2L));
    }


    @Test
    void deletingAReferencedViewRowRunsTheChildsAction() {
        script("""
                create table c (id integer primary key, m_k integer references m (k) on delete cascade);
                create table r (id integer primary key, m_k integer references m (k) on delete restrict);
                insert into c values (10, 1), (11, 2);
                insert into r values (20, 2);
                """);
        session.execute("delete from t where k = 1");
        assertThat(rows("select id from c")).containsExactly(row(11L));
        assertThatThrownBy(() -> session.execute("delete from t where k = 2"))
                .hasMessageContaining("FOREIGN KEY constraint failed");
        assertThat(rows("select count(*) from t")).containsExactly(row(1L));
    }

    @Test
    void aDerivedRowReferencingAMissingParentFails() {
        assertThatThrownBy(() -> session.execute("update t set owner = 9 where k = 2"))
                .hasMessageContaining("references a missing 'main.p'");
        session.execute("pragma foreign_keys = off");
        session.execute("update t set owner = 9 where k = 2");
        assertThat(rows("select owner from m where k = 2")).containsExactly(row(9L));
    }

    @Test
    void aParentStillMissingFailsTheTwoPhasePrepareAndRollsBack() {
        session.begin();
        session.execute("insert into t values (3, 'c', 3, 9)");
        assertThatThrownBy(session::prepareCommit)
                .hasMessageContaining("FOREIGN KEY constraint failed — row derived into maintained table 'main.m'"
                        + " references a missing 'main.p'")
                .satisfies(e -> assertThat(((DeriveException) e).code()).isEqualTo(DeriveException.CONSTRAINT));
        assertThat(session.inTransaction()).isFalse();
        assertThat(rows("select count(*) from t")).containsExactly(row(2L));
        assertThat(rows("select count(*) from m")).containsExactly(row(2L));
    }

    @Test
    void aParentTheTransactionAddsLaterPassesTheTwoPhasePrepare() {
        session.begin();
        session.execute("insert into t values (3, 'c', 3, 9)");
        session.execute("insert into p values (9)");
        assertThat(session.prepareCommit()).isEqualTo(CommitVote.PREPARED);
        session.commit();
        assertThat(rows("select owner from m where k = 3")).containsExactly(row(9L));
    }

    @Test
    void aDerivedRowFailingAtCommitWasNeverVisibleToAnotherSession() {
        try (Session other = db.openSession()) {
            session.begin();
            session.execute("insert into t values (3, 'c', 3, 9)");
            assertUncommittedInvisibleTo(other, "select * from m where k = 3");
            assertThatThrownBy(session::commit).hasMessageContaining("references a missing 'main.p'");
            assertThat(rows(other, "select count(*) from m")).containsExactly(row(2L));
        }
    }

    @Test
    void aRollbackToASavepointDiscardsTheChecksOfWhatItUndid() {
        session.begin();
        session.execute("savepoint s");
        session.execute("insert into t values (3, 'c', 3, 9)");
        session.execute("rollback to s");
        session.execute("release s");
        session.commit();
        assertThat(rows("select count(*) from m")).containsExactly(row(2L));
    }
}
