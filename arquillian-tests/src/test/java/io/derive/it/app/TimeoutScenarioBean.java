package io.derive.it.app;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DeriveException;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.transaction.UserTransaction;

/**
 * A bean-managed transaction with a short timeout whose application thread sleeps inside it,
 * past its deadline, holding a Derive write. (Liberty refuses to suspend a timed-out transaction
 * for a REQUIRES_NEW call, so the other transaction runs on a thread of its own.)
 */
@Stateless
@TransactionManagement(TransactionManagementType.BEAN)
public class TimeoutScenarioBean {

    @Resource
    UserTransaction transaction;

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory derive;

    @EJB
    ScenarioBean scenarios;

    /**
     * Inserts row 1 in a transaction of {@code timeoutSeconds}, sleeps {@code sleepMillis}, then
     * has another transaction insert row 1 too (it needs the row's lock the first one held) and tries
     * a further statement and the commit in the timed-out one.
     */
    public String sleepPastTheTimeout(String t, int timeoutSeconds, long sleepMillis) throws Exception {
        StringBuilder out = new StringBuilder();
        transaction.setTransactionTimeout(timeoutSeconds);
        transaction.begin();
        try (DeriveConnection c = derive.getConnection()) {
            c.execute("insert into " + t + " values (1, 'timed out', 1)");
            Thread.sleep(sleepMillis);
            out.append("otherTransaction=").append(inAnotherThread(() -> scenarios.insertInNewTransaction(t, 1))).append('\n');
            out.append("laterStatement=").append(attempt(() -> c.execute("insert into " + t + " values (3, 'late', 1)"))).append('\n');
        } finally {
            out.append("commit=").append(attempt(transaction::commit)).append('\n');
        }
        return out.toString();
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /** Runs {@code step} on a thread of its own, outside this thread's (timed-out) transaction context. */
    private static String inAnotherThread(Step step) throws InterruptedException {
        String[] outcome = {"failed: did not finish in 30 s"};
        Thread other = new Thread(() -> outcome[0] = attempt(step), "other-transaction");
        other.start();
        other.join(30_000);
        return outcome[0];
    }

    private static String attempt(Step step) {
        try {
            step.run();
            return "ok";
        } catch (DeriveException e) {
            return "failed: " + e.getMessage();
        } catch (Exception e) {
            return "failed: " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }
}
