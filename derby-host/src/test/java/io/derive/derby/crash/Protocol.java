package io.derive.derby.crash;

import java.util.OptionalLong;

/**
 * The lines the child prints on its standard output, one per event, each flushed before the
 * child goes on, so that whatever the parent has read when the child dies is exactly what the
 * child had done:
 * <ul>
 *   <li>{@code OPENING} — about to open the database (rehydrate runs next);</li>
 *   <li>{@code READY n} — opened; the next transaction is {@code n} (the highest in {@code log}, plus one);</li>
 *   <li>{@code BEGIN n} — transaction {@code n} starts;</li>
 *   <li>{@code COMMITTING n} — about to commit {@code n}: from here it may be durable;</li>
 *   <li>{@code ACK n} — the commit of {@code n} returned: it must survive any crash;</li>
 *   <li>{@code ERROR text} — the engine disagreed with the model; the child stops.</li>
 * </ul>
 */
final class Protocol {
    static final String OPENING = "OPENING";
    static final String READY = "READY";
    static final String BEGIN = "BEGIN";
    static final String COMMITTING = "COMMITTING";
    static final String ACK = "ACK";
    static final String ERROR = "ERROR";

    private Protocol() {
    }

    static String line(String event, long txn) {
        return event + " " + txn;
    }

    /** The event word of a line. */
    static String event(String line) {
        int space = line.indexOf(' ');
        return space < 0 ? line : line.substring(0, space);
    }

    /** The transaction id of a {@code READY}, {@code BEGIN}, {@code COMMITTING} or {@code ACK} line. */
    static OptionalLong txn(String line) {
        String event = event(line);
        if (!event.equals(READY) && !event.equals(BEGIN) && !event.equals(COMMITTING) && !event.equals(ACK)) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(line.substring(event.length()).trim()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    static boolean is(String line, String event) {
        return event(line).equals(event);
    }
}
