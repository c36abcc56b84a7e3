package io.derive.rar;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.transaction.xa.Xid;

/**
 * A bounded record of the last XA calls made on the branches of one Derive database, kept so
 * that tests running inside the application can check what the transaction manager did (for
 * example that {@code prepare} came before a two-phase {@code commit}).
 *
 * <p>Contract: thread-safe; keeps at most {@link #CAPACITY} entries, dropping the oldest; entries
 * are in the order the calls finished. Journals are found by database name with
 * {@link #forDatabase(String)}; the resource adapter drops them when it stops.
 */
public final class XaCallJournal {

    /** How many calls a journal keeps. */
    public static final int CAPACITY = 512;

    private static final Map<String, XaCallJournal> BY_DATABASE = new ConcurrentHashMap<>();

    /**
     * One XA call.
     *
     * @param sequence  increasing number within the journal, from 1
     * @param time      when the call finished
     * @param operation the XAResource method, e.g. {@code prepare}
     * @param xid       {@code formatId:gtrid-hex:bqual-hex}, or empty for calls without a xid
     * @param detail    flags or {@code onePhase=…}, as the call had them
     * @param outcome   {@code ok}, a vote such as {@code XA_RDONLY}, or the XAException code name
     */
    public record Entry(long sequence, Instant time, String operation, String xid, String detail,
                        String outcome) {
        @Override
        public String toString() {
            return sequence + " " + operation + "(" + xid + (detail.isEmpty() ? "" : ", " + detail) + ") -> " + outcome;
        }
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private long sequence;

    /** The journal of the named database, created empty on first use. */
    public static XaCallJournal forDatabase(String databaseName) {
        return BY_DATABASE.computeIfAbsent(databaseName, n -> new XaCallJournal());
    }

    static void drop(String databaseName) {
        BY_DATABASE.remove(databaseName);
    }

    /** Formats a xid the way entries show it. */
    public static String format(Xid xid) {
        if (xid == null) {
            return "";
        }
        HexFormat hex = HexFormat.of();
        return xid.getFormatId() + ":" + hex.formatHex(xid.getGlobalTransactionId()) + ":"
                + hex.formatHex(xid.getBranchQualifier());
    }

    synchronized Entry record(String operation, Xid xid, String detail, String outcome) {
        Entry entry = new Entry(++sequence, Instant.now(), operation, format(xid), detail, outcome);
        if (entries.size() == CAPACITY) {
            entries.removeFirst();
        }
        entries.addLast(entry);
        return entry;
    }

    /** A snapshot of the kept entries, oldest first. */
    public synchronized List<Entry> entries() {
        return new ArrayList<>(entries);
    }

    /** Forgets every entry (the sequence keeps counting). */
    public synchronized void clear() {
        entries.clear();
    }
}
