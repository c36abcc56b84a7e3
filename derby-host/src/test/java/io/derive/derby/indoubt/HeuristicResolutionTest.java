package io.derive.derby.indoubt;

import io.derive.derby.DerbyTableModule;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.InDoubtBranch;
import io.derive.engine.api.Session;
import io.derive.engine.durable.HeuristicOutcomes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static io.derive.derby.indoubt.DurableDirectory.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * An operator decides a branch its transaction manager cannot (its log is lost): the outcome is
 * recorded, the branch completed and what it fenced opened; the transaction manager, should it
 * come back, learns the outcome from its commit or rollback, then forgets it.
 */
class HeuristicResolutionTest {
    private static final String SCHEMA = """
            create table t (k integer primary key, v text);
            create index t_by_v on t (v);
            create materialized view derby_mv as select k, v from t;
            create materialized view memory_mv using memory as select count(*) as n from t;
            insert into t values (1, 'one');
            """;

    @TempDir
    Path directory;

    private DurableDirectory database;
    private BranchId xid;

    @BeforeEach
    void leaveABranchInDoubt() {
        database = new DurableDirectory(directory);
        database.run(SCHEMA);
        xid = database.leavePrepared("insert into t values (2, 'two')");
    }

    @Test
    void aBranchInDoubtIsListedWithWhatItWrote() {
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThat(db.inDoubtBranches()).containsExactly(new InDoubtBranch(xid, InDoubtBranch.State.IN_DOUBT,
                    List.of("table main.t", "index main.t_by_v", "materialized view main.derby_mv"), null));
            assertThat(rows(s, "select xid, state, touched, decided_at from in_doubt()")).containsExactly(
                    java.util.Arrays.asList(xid.toString(), "in doubt", "table main.t, index main.t_by_v, materialized view main.derby_mv",
                            null));
        }
    }

    @Test
    void aHeuristicCommitOpensWhatTheBranchFencedWithItsRows() {
        try (Database db = database.open(); Session s = db.openSession()) {
            db.resolveHeuristically(xid, true);
            assertThat(rows(s, "select k from t order by k")).containsExactly(List.of(1L), List.of(2L));
            assertThat(rows(s, "select k from derby_mv order by k")).containsExactly(List.of(1L), List.of(2L));
            assertThat(rows(s, "select n from memory_mv")).containsExactly(List.of(2L));
        }
    }

    @Test
    void aHeuristicRollbackOpensWhatTheBranchFencedWithoutItsRows() {
        try (Database db = database.open(); Session s = db.openSession()) {
            db.resolveHeuristically(xid, false);
            assertThat(rows(s, "select k from t order by k")).containsExactly(List.of(1L));
            assertThat(rows(s, "select n from memory_mv")).containsExactly(List.of(1L));
        }
    }

    @Test
    void aDecidedBranchIsStillRecoveredAndListedWithItsOutcomeUntilForgotten() {
        try (Database db = database.open(); Session s = db.openSession()) {
            Instant before = Instant.now();
            db.resolveHeuristically(xid, true);
            assertThat(db.inDoubt()).containsExactly(xid);
            assertThat(db.inDoubtBranches()).singleElement().satisfies(b -> {
                assertThat(b.xid()).isEqualTo(xid);
                assertThat(b.state()).isEqualTo(InDoubtBranch.State.HEURISTICALLY_COMMITTED);
                assertThat(b.touched()).containsExactly("table main.t", "index main.t_by_v", "materialized view main.derby_mv");
                assertThat(b.decidedAt()).isAfterOrEqualTo(before.minusSeconds(1));
            });
            assertThat(rows(s, "select state from in_doubt()")).containsExactly(List.of("heuristically committed"));
        }
    }

    @Test
    void theTransactionManagersCommitIsAnsweredWithTheHeuristicCommit() {
        try (Database db = database.open()) {
            db.resolveHeuristically(xid, true);
            assertThatThrownBy(() -> db.commitInDoubt(xid)).isInstanceOfSatisfying(DeriveException.class,
                    e -> assertThat(e.code()).isEqualTo(DeriveException.HEURISTICALLY_COMMITTED))
                    .hasMessageContaining("in-doubt transaction " + xid + " was heuristically committed by an operator");
            assertThat(db.inDoubt()).containsExactly(xid);
        }
    }

    @Test
    void theTransactionManagersOppositeDecisionIsAnsweredWithTheHeuristicOutcome() {
        try (Database db = database.open(); Session s = db.openSession()) {
            db.resolveHeuristically(xid, false);
            assertThatThrownBy(() -> db.commitInDoubt(xid)).isInstanceOfSatisfying(DeriveException.class,
                    e -> assertThat(e.code()).isEqualTo(DeriveException.HEURISTICALLY_ROLLED_BACK));
            assertThatThrownBy(() -> db.rollbackInDoubt(xid)).isInstanceOfSatisfying(DeriveException.class,
                    e -> assertThat(e.code()).isEqualTo(DeriveException.HEURISTICALLY_ROLLED_BACK));
            assertThat(rows(s, "select k from t order by k")).containsExactly(List.of(1L));
        }
    }

    @Test
    void forgettingTheOutcomeRemovesTheBranchFromEveryListing() {
        try (Database db = database.open()) {
            db.resolveHeuristically(xid, true);
            db.forgetHeuristic(xid);
            assertThat(db.inDoubt()).isEmpty();
            assertThat(db.inDoubtBranches()).isEmpty();
            assertThatThrownBy(() -> db.forgetHeuristic(xid)).isInstanceOfSatisfying(DeriveException.class,
                    e -> assertThat(e.code()).isEqualTo(DeriveException.UNDEFINED_OBJECT));
            assertThatThrownBy(() -> db.commitInDoubt(xid)).isInstanceOfSatisfying(DeriveException.class,
                    e -> assertThat(e.code()).isEqualTo(DeriveException.UNDEFINED_OBJECT));
        }
    }

    @Test
    void theOutcomeSurvivesAReopen() {
        try (Database db = database.open()) {
            db.resolveHeuristically(xid, true);
        }
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThat(db.inDoubt()).containsExactly(xid);
            assertThat(db.inDoubtBranches()).extracting(InDoubtBranch::state)
                    .containsExactly(InDoubtBranch.State.HEURISTICALLY_COMMITTED);
            assertThatThrownBy(() -> db.rollbackInDoubt(xid)).isInstanceOfSatisfying(DeriveException.class,
                    e -> assertThat(e.code()).isEqualTo(DeriveException.HEURISTICALLY_COMMITTED));
            assertThat(rows(s, "select k from t order by k")).containsExactly(List.of(1L), List.of(2L));
            db.forgetHeuristic(xid);
        }
        try (Database db = database.open()) {
            assertThat(db.inDoubt()).isEmpty();
        }
    }

    @Test
    void aDecisionRecordedButNotCarriedOutIsCarriedOutAtTheNextOpen() {
        // What a crash between recording the decision and completing the branch leaves.
        DerbyTableModule module = database.module();
        try {
            HeuristicOutcomes.open(module).record(new HeuristicOutcomes.Decision(xid, false, Instant.now(), List.of("table main.t")));
        } finally {
            module.close();
        }
        try (Database db = database.open(); Session s = db.openSession()) {
            assertThat(rows(s, "select k from t order by k")).containsExactly(List.of(1L));
            assertThat(db.inDoubtBranches()).extracting(InDoubtBranch::state)
                    .containsExactly(InDoubtBranch.State.HEURISTICALLY_ROLLED_BACK);
        }
    }

    @Test
    void aBranchThatChangedTheCatalogIsListedAsSuchAndAnOperatorsDecisionOpensTheDatabase() {
        DurableDirectory other = new DurableDirectory(directory.resolve("ddl"));
        other.run("create table t (k integer primary key)");
        BranchId ddl = other.leavePrepared("""
                create table w (k integer primary key);
                insert into w values (7);
                """);
        try (Database db = other.open(); Session s = db.openSession()) {
            assertThat(db.inDoubtBranches()).extracting(InDoubtBranch::touched).containsExactly(List.of("catalog"));
            db.resolveHeuristically(ddl, true);
            assertThat(rows(s, "select k from w")).containsExactly(List.of(7L));
            assertThat(db.inDoubtBranches()).extracting(InDoubtBranch::state, InDoubtBranch::touched)
                    .containsExactly(tuple(InDoubtBranch.State.HEURISTICALLY_COMMITTED, List.of("catalog")));
        }
    }

    @Test
    void onlyABranchInDoubtCanBeDecidedByAnOperator() {
        try (Database db = database.open()) {
            BranchId unknown = new BranchId(4711, new byte[] {7}, new byte[] {7});
            assertThatThrownBy(() -> db.resolveHeuristically(unknown, true)).isInstanceOfSatisfying(DeriveException.class,
                    e -> assertThat(e.code()).isEqualTo(DeriveException.UNDEFINED_OBJECT))
                    .hasMessageContaining("no in-doubt transaction " + unknown);
            db.resolveHeuristically(xid, true);
            assertThatThrownBy(() -> db.resolveHeuristically(xid, false)).isInstanceOfSatisfying(DeriveException.class,
                    e -> assertThat(e.code()).isEqualTo(DeriveException.HEURISTICALLY_COMMITTED));
        }
    }
}
