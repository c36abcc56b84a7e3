package io.derive.rar;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * A test-only fault in two-phase commit: halts the JVM ({@link Runtime#halt}: no shutdown hook
 * runs and nothing is closed, as in a crash) at the point the system property {@value #PROPERTY}
 * names, so that a test can check what the transaction manager's recovery makes of the branch
 * after a restart. Off unless the property is set; no server configuration of the product sets it.
 *
 * <ul>
 *   <li>{@code afterPrepare}: right after Derive's prepare succeeded, before it answers: the
 *       branch is prepared (logged by Derby) and the transaction manager has no decision yet,
 *       so recovery rolls it back.</li>
 *   <li>{@code beforeCommit}: at the start of a two-phase commit, before the engine commits:
 *       every resource is prepared and the transaction manager has logged its commit decision,
 *       so recovery commits it.</li>
 * </ul>
 */
final class XaFaultHook {

    static final String PROPERTY = "derive.rar.testHaltAt";
    /** The exit status of a JVM this hook halted. */
    static final int HALTED = 87;

    private static final Logger LOG = System.getLogger(XaFaultHook.class.getName());
    private static final String AFTER_PREPARE = "afterPrepare";
    private static final String BEFORE_COMMIT = "beforeCommit";
    private static final String HALT_AT = System.getProperty(PROPERTY);

    private XaFaultHook() {
    }

    /** Called once Derive's prepare of a branch has succeeded, before the vote is returned. */
    static void afterPrepare() {
        haltIfAt(AFTER_PREPARE);
    }

    /** Called when a two-phase commit of a prepared branch starts, before the engine commits. */
    static void beforeCommit() {
        haltIfAt(BEFORE_COMMIT);
    }

    private static void haltIfAt(String point) {
        if (HALT_AT == null) {
            return;
        }
        // A misspelt value must not pass for a run in which the fault simply never happened.
        if (!List.of(AFTER_PREPARE, BEFORE_COMMIT).contains(HALT_AT)) {
            throw new IllegalStateException(PROPERTY + "=" + HALT_AT + " names no halt point: use " + AFTER_PREPARE
                    + " or " + BEFORE_COMMIT);
        }
        if (HALT_AT.equals(point)) {
            LOG.log(Level.WARNING, "halting the JVM {0} ({1})", point, PROPERTY);
            Runtime.getRuntime().halt(HALTED);
        }
    }
}
