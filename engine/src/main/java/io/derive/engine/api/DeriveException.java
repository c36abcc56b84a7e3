package io.derive.engine.api;

/**
 * The one exception type Derive reports to its users.
 *
 * <p>It is unchecked so that a container-managed JTA transaction rolls back when it escapes a
 * business method. Every instance carries an SQLSTATE-like {@linkplain #code() code} and, when the
 * error concerns SQL text, the {@linkplain #line() line} and {@linkplain #column() column} (both
 * 1-based) of the offending token; the message then ends with {@code at line:column}.
 *
 * <p>A statement that throws it has changed nothing beyond what its conflict clause allows, and
 * the transaction is in the state it was before the statement, unless {@link #endedTransaction()}
 * says the engine rolled the transaction back (for example {@code or rollback}).
 */
public class DeriveException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** SQLSTATE-like codes the engine uses; the message is the contract, codes are a coarse class. */
    public static final String SYNTAX = "42601";
    public static final String UNDEFINED_OBJECT = "42704";
    public static final String DUPLICATE_OBJECT = "42710";
    public static final String INVALID_DEFINITION = "42P17";
    public static final String DATA = "22000";
    public static final String CONSTRAINT = "23000";
    public static final String TRANSACTION_STATE = "25000";
    /**
     * What a statement needs waits for the outcome of an in-doubt transaction a process that
     * ended left prepared: retry once its transaction manager (or an operator) has decided it.
     */
    public static final String IN_DOUBT = "25I01";
    /** The transaction branch was committed by an operator's heuristic decision, not by its transaction manager. */
    public static final String HEURISTICALLY_COMMITTED = "25I02";
    /** The transaction branch was rolled back by an operator's heuristic decision, not by its transaction manager. */
    public static final String HEURISTICALLY_ROLLED_BACK = "25I03";
    /** A lock wait passed its timeout, or a statement could not get a stable state to write on: retry the transaction. */
    public static final String LOCK_TIMEOUT = "40001";
    /** The transaction was chosen to end a deadlock and has rolled back (SQLSTATE deadlock_detected): retry it. */
    public static final String DEADLOCK = "40P01";
    public static final String READ_ONLY = "25006";
    /**
     * The object is held by another run (SQLSTATE object_in_use): a second chunked refresh run of
     * a materialized view while one holds its lease, or a second {@code rehydrate materialized
     * view} of a view another session is refilling. Not worth retrying until that run ends.
     */
    public static final String OBJECT_IN_USE = "55006";
    /**
     * The object is not in the state the statement needs (SQLSTATE object_not_in_prerequisite_state):
     * a materialized view is being rehydrated (a deferred rehydrate has not refilled it yet), or
     * {@code rehydrate materialized view} names one that is not pending or whose source still is.
     * Retry once the refill it waits for has committed.
     */
    public static final String OBJECT_NOT_READY = "55000";
    /**
     * The statement was stopped because the heap is nearly full, or ran out of it (SQLSTATE
     * out_of_memory); it changed nothing. A statement that holds fewer rows at once can run.
     */
    public static final String OUT_OF_MEMORY = "53200";
    /** The transaction was canceled by {@link Session#cancel()} (SQLSTATE query_canceled). */
    public static final String CANCELED = "57014";
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    public static final String INTERNAL = "XX000";

    private final String code;
    private final int line;
    private final int column;
    private final boolean endedTransaction;

    public DeriveException(String code, String message) {
        this(code, message, 0, 0, false, null);
    }

    public DeriveException(String code, String message, int line, int column) {
        this(code, message, line, column, false, null);
    }

    public DeriveException(String code, String message, Throwable cause) {
        this(code, message, 0, 0, false, cause);
    }

    protected DeriveException(String code, String message, int line, int column,
                              boolean endedTransaction, Throwable cause) {
        super(line > 0 ? message + " at " + line + ":" + column : message, cause);
        this.code = code;
        this.line = line;
        this.column = column;
        this.endedTransaction = endedTransaction;
    }

    /** The SQLSTATE-like class of the error, one of the constants of this class. */
    public String code() {
        return code;
    }

    /** 1-based line of the offending SQL token, or 0 when the error is not about SQL text. */
    public int line() {
        return line;
    }

    /** 1-based column of the offending SQL token, or 0 when the error is not about SQL text. */
    public int column() {
        return column;
    }

    /** True when the engine rolled the whole transaction back as part of reporting this error. */
    public boolean endedTransaction() {
        return endedTransaction;
    }

    /** The same error, now also reporting that the transaction was rolled back. */
    public DeriveException withEndedTransaction() {
        if (endedTransaction) {
            return this;
        }
        DeriveException copy = new DeriveException(code, baseMessage(), line, column, true, getCause());
        copy.setStackTrace(getStackTrace());
        return copy;
    }

    /** The same error, sited at a position of the SQL text when it had no position yet. */
    public DeriveException at(int line, int column) {
        if (this.line > 0 || line <= 0) {
            return this;
        }
        DeriveException copy = new DeriveException(code, baseMessage(), line, column, endedTransaction, getCause());
        copy.setStackTrace(getStackTrace());
        return copy;
    }

    /**
     * The same error, its message followed by {@code context} (what the failing SQL belongs to,
     * when that is not the statement being run); its position stays.
     */
    public DeriveException explained(String context) {
        DeriveException copy = new DeriveException(code, baseMessage() + context, line, column, endedTransaction, getCause());
        copy.setStackTrace(getStackTrace());
        return copy;
    }

    private String baseMessage() {
        String message = getMessage();
        return line > 0 ? message.substring(0, message.lastIndexOf(" at ")) : message;
    }
}
