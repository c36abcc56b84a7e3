package io.derive.derby;

import io.derive.engine.api.DeriveException;

import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Turns Derby's {@link SQLException}s into {@link DeriveException}s that name the database and
 * keep Derby's explanation: Derby often puts the real reason in a chained exception ("see the next
 * exception for details"), so every distinct message of the chain is kept.
 */
final class DerbyErrors {
    /** Enough to reach the root cause without echoing a whole stack of wrappers. */
    private static final int MAX_MESSAGES = 4;

    private DerbyErrors() {
    }

    /**
     * The error for a failed action on a database, e.g. {@code "Derby database 'memory:x': cannot
     * open: <Derby's messages> (SQLState XJ041)"}.
     */
    static DeriveException toDeriveException(String location, String action, SQLException e) {
        String message = "Derby database '" + location + "': cannot " + action + ": "
                + String.join("; ", messages(e)) + " (SQLState " + e.getSQLState() + ")";
        return new DeriveException(code(e.getSQLState()), message, e);
    }

    private static Set<String> messages(SQLException e) {
        Set<String> messages = new LinkedHashSet<>();
        Set<Throwable> seen = new LinkedHashSet<>();
        collect(e, messages, seen);
        return messages;
    }

    private static void collect(Throwable t, Set<String> messages, Set<Throwable> seen) {
        if (t == null || !seen.add(t) || messages.size() >= MAX_MESSAGES) {
            return;
        }
        if (t.getMessage() != null && !t.getMessage().isBlank()) {
            messages.add(t.getMessage().strip());
        }
        if (t instanceof SQLException) {
            collect(((SQLException) t).getNextException(), messages, seen);
        }
        collect(t.getCause(), messages, seen);
    }

    private static String code(String sqlState) {
        if (sqlState == null) {
            return DeriveException.INTERNAL;
        }
        if (sqlState.equals("XSCB6")) {
            // A key too long for a page of Derby's primary-key index.
            return DeriveException.DATA;
        }
        if (sqlState.equals("XJ004")) {
            return DeriveException.UNDEFINED_OBJECT;
        }
        if (sqlState.equals("40001") || sqlState.startsWith("40XL")) {
            return DeriveException.LOCK_TIMEOUT;
        }
        if (sqlState.startsWith("23")) {
            return DeriveException.CONSTRAINT;
        }
        if (sqlState.startsWith("22")) {
            return DeriveException.DATA;
        }
        if (sqlState.startsWith("42")) {
            return DeriveException.SYNTAX;
        }
        if (sqlState.startsWith("25") || sqlState.startsWith("XJ05")) {
            return DeriveException.TRANSACTION_STATE;
        }
        if (sqlState.startsWith("0A")) {
            return DeriveException.FEATURE_NOT_SUPPORTED;
        }
        return DeriveException.INTERNAL;
    }
}
