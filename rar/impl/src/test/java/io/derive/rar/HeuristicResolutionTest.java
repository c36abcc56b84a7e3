package io.derive.rar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.InDoubtBranch;
import io.derive.engine.api.Row;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator decides a branch a halted process left in doubt through the connection factory
 * (its transaction manager's log lost); the transaction manager is then told the heuristic outcome
 * by XA until it forgets the branch.
 */
class HeuristicResolutionTest {

    private static final BranchId XID = BranchId.of(XaFaultHookTest.XID);

    @TempDir
    Path directory;

    private DeriveResourceAdapter adapter;
    private DeriveManagedConnectionFactory factory;
    private DeriveConnectionFactory connections;

    @BeforeEach
    void haltAChildAfterItsPrepareAndReopen() throws Exception {
        XaFaultHookTest.runChildHaltingAt(directory, "beforeCommit");
        adapter = XaFaultHookTest.started();
        factory = XaFaultHookTest.factory(adapter, directory);
        connections = (DeriveConnectionFactory) factory.createConnectionFactory(OpenAtFactoryTest.MANAGER);
    }

    @AfterEach
    void stop() {
        adapter.stop();
    }

    @Test
    void theFactoryListsTheBranchInDoubtWithWhatItWrote() {
        assertThat(connections.inDoubtBranches()).singleElement().satisfies(b -> {
            assertThat(b.xid()).isEqualTo(XID);
            assertThat(b.state()).isEqualTo(InDoubtBranch.State.IN_DOUBT);
            assertThat(b.touched()).containsExactly("table main.t");
            assertThat(b.decidedAt()).isNull();
        });
    }

    @Test
    void aCommitByTheOperatorIsAnsweredXaHeurcomToTheTransactionManagersCommitAndRollback() throws Exception {
        connections.resolveInDoubt(XID, true);

        assertThat(rows("select k from t order by k")).containsExactly(List.of(2L));
        assertThat(connections.inDoubtBranches()).singleElement()
                .extracting(InDoubtBranch::state).isEqualTo(InDoubtBranch.State.HEURISTICALLY_COMMITTED);
        XAResource xa = xaResource();
        assertThat(recover(xa)).containsExactly(XID);
        assertThat(xaError(() -> xa.commit(XID, false))).isEqualTo(XAException.XA_HEURCOM);
        assertThat(xaError(() -> xa.rollback(XID))).isEqualTo(XAException.XA_HEURCOM);
    }

    @Test
    void aRollbackByTheOperatorIsAnsweredXaHeurrbToTheTransactionManagersCommit() throws Exception {
        connections.resolveInDoubt(XID, false);

        assertThat(rows("select k from t")).isEmpty();
        XAResource xa = xaResource();
        assertThat(xaError(() -> xa.commit(XID, false))).isEqualTo(XAException.XA_HEURRB);
    }

    @Test
    void theTransactionManagersForgetEndsTheReportAndASecondForgetAnswersXaerNota() throws Exception {
        connections.resolveInDoubt(XID, true);
        XAResource xa = xaResource();

        xa.forget(XID);

        assertThat(recover(xa)).isEmpty();
        assertThat(connections.inDoubtBranches()).isEmpty();
        assertThat(xaError(() -> xa.forget(XID))).isEqualTo(XAException.XAER_NOTA);
        assertThat(xaError(() -> xa.commit(XID, false))).isEqualTo(XAException.XAER_NOTA);
    }

    @Test
    void theOperatorForgetsADecisionWhoseTransactionManagerWillNeverAsk() throws Exception {
        connections.resolveInDoubt(XID, false);

        connections.forgetResolved(XID);

        assertThat(recover(xaResource())).isEmpty();
        assertThat(connections.inDoubtBranches()).isEmpty();
    }

    @Test
    void aSecondDecisionIsRefusedWithTheFirstOutcomeAndChangesNothing() {
        connections.resolveInDoubt(XID, false);

        assertThatThrownBy(() -> connections.resolveInDoubt(XID, true)).isInstanceOfSatisfying(DeriveException.class,
                e -> assertThat(e.code()).isEqualTo(DeriveException.HEURISTICALLY_ROLLED_BACK));
        assertThat(rows("select k from t")).isEmpty();
    }

    @Test
    void decidingABranchNoProcessLeftIsRefusedNamingIt() {
        BranchId unknown = BranchId.of(ForeignXid.of(4711, "no-such", (byte) 9));

        assertThatThrownBy(() -> connections.resolveInDoubt(unknown, true)).isInstanceOfSatisfying(DeriveException.class, e -> {
            assertThat(e.code()).isEqualTo(DeriveException.UNDEFINED_OBJECT);
            assertThat(e.getMessage()).contains(unknown.toString());
        });
        assertThat(connections.inDoubtBranches()).singleElement()
                .extracting(InDoubtBranch::state).isEqualTo(InDoubtBranch.State.IN_DOUBT);
    }

    private XAResource xaResource() throws Exception {
        return ((DeriveManagedConnection) factory.createManagedConnection(null, null)).getXAResource();
    }

    private List<List<Object>> rows(String query) {
        try (DeriveConnection c = connections.getConnection()) {
            return c.query(query).stream().map(Row::values).toList();
        }
    }

    private static List<BranchId> recover(XAResource xa) throws XAException {
        return Arrays.stream(xa.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)).map(BranchId::of).toList();
    }

    private interface XaCall {
        void run() throws XAException;
    }

    private static int xaError(XaCall call) {
        try {
            call.run();
        } catch (XAException e) {
            return e.errorCode;
        }
        throw new AssertionError("the XA call succeeded");
    }
}
