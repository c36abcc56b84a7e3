package io.derive.derby.crash;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Everything one child printed before it died, in order, with the time each line arrived; read
 * after the child's output ended, so it holds every line the child flushed before the kill.
 */
final class Transcript {
    /** How many of the last lines a failure message quotes. */
    private static final int QUOTED = 6;

    /** One line and when the parent read it ({@link System#nanoTime()}). */
    record Line(String text, long nanos) {
    }

    /** Where the kill landed, judged by the last protocol line the child printed. */
    enum KillPoint {
        /** Before {@code READY}: while the database was opening and rehydrating. */
        DURING_OPEN,
        /** After {@code READY} or an {@code ACK}, before the next {@code BEGIN}. */
        BETWEEN_TRANSACTIONS,
        /** After {@code BEGIN}, before {@code COMMITTING}. */
        INSIDE_TRANSACTION,
        /** After {@code COMMITTING}, before its {@code ACK}. */
        INSIDE_COMMIT
    }

    private final List<Line> lines;

    Transcript(List<Line> lines) {
        this.lines = List.copyOf(lines);
    }

    List<Line> lines() {
        return lines;
    }

    /** The first {@code ERROR} line, or null. */
    String error() {
        return lines.stream().map(Line::text).filter(t -> Protocol.is(t, Protocol.ERROR)).findFirst().orElse(null);
    }

    /** The transaction the child said it would continue with, when it got that far. */
    OptionalLong readyTxn() {
        return lines.stream().map(Line::text).filter(t -> Protocol.is(t, Protocol.READY))
                .mapToLong(t -> Protocol.txn(t).orElseThrow()).findFirst();
    }

    /** The acknowledged transactions, in order. */
    List<Long> acknowledged() {
        List<Long> acks = new ArrayList<>();
        for (Line line : lines) {
            if (Protocol.is(line.text(), Protocol.ACK)) {
                acks.add(Protocol.txn(line.text()).orElseThrow());
            }
        }
        return acks;
    }

    KillPoint killPoint() {
        String last = lastProtocolLine();
        if (last == null || Protocol.is(last, Protocol.OPENING)) {
            return KillPoint.DURING_OPEN;
        }
        if (Protocol.is(last, Protocol.BEGIN)) {
            return KillPoint.INSIDE_TRANSACTION;
        }
        if (Protocol.is(last, Protocol.COMMITTING)) {
            return KillPoint.INSIDE_COMMIT;
        }
        return KillPoint.BETWEEN_TRANSACTIONS;
    }

    /** The transaction whose commit was under way at the kill: it may or may not have committed. */
    OptionalLong inDoubt() {
        return killPoint() == KillPoint.INSIDE_COMMIT ? Protocol.txn(lastProtocolLine()) : OptionalLong.empty();
    }

    /** The transaction begun last, whatever became of it. */
    OptionalLong lastBegun() {
        OptionalLong last = OptionalLong.empty();
        for (Line line : lines) {
            if (Protocol.is(line.text(), Protocol.BEGIN)) {
                last = Protocol.txn(line.text());
            }
        }
        return last;
    }

    /** Milliseconds from {@code OPENING} to {@code READY}, or -1 when the child did not get that far. */
    long openMillis() {
        Line opening = first(Protocol.OPENING);
        Line ready = first(Protocol.READY);
        return opening == null || ready == null ? -1 : (ready.nanos() - opening.nanos()) / 1_000_000;
    }

    /** The last few lines, for a failure message. */
    String tail() {
        List<String> texts = lines.stream().map(Line::text).toList();
        return String.join(" | ", texts.subList(Math.max(0, texts.size() - QUOTED), texts.size()));
    }

    private Line first(String event) {
        return lines.stream().filter(l -> Protocol.is(l.text(), event)).findFirst().orElse(null);
    }

    private String lastProtocolLine() {
        for (int i = lines.size() - 1; i >= 0; i--) {
            String text = lines.get(i).text();
            String event = Protocol.event(text);
            if (event.equals(Protocol.OPENING) || Protocol.txn(text).isPresent()) {
                return text;
            }
        }
        return null;
    }
}
