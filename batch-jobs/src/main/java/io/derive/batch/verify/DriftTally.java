package io.derive.batch.verify;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Where {@code mv-verify} stands, as its chunk step checkpoints it: the view's key columns, the
 * last key of the last verified range, the ranges and the view's keys they covered (against the
 * rows the view held at the start, for the percent done), and the drifted keys found so far by
 * kind with a sample. The reader and the writer share one instance; the checkpoint and the step's
 * persistent user data are copies, so the job repository holds what committed chunks found.
 */
public final class DriftTally implements Serializable {
    private static final long serialVersionUID = 1L;
    /** How many drifted keys the exit status names. */
    static final int SAMPLE = 10;

    private final List<String> keyColumns;
    private final long expected;
    private List<Object> after;
    private boolean done;
    private long ranges;
    private long keys;
    private long missing;
    private long extra;
    private long differs;
    private final List<String> sample = new ArrayList<>();

    DriftTally(List<String> keyColumns, long expected) {
        this.keyColumns = List.copyOf(keyColumns);
        this.expected = expected;
    }

    DriftTally copy() {
        DriftTally copy = new DriftTally(keyColumns, expected);
        copy.after = after;
        copy.done = done;
        copy.ranges = ranges;
        copy.keys = keys;
        copy.missing = missing;
        copy.extra = extra;
        copy.differs = differs;
        copy.sample.addAll(sample);
        return copy;
    }

    /** Records a verified range and the drift found in it, as {@code kind key} pairs. */
    void verified(KeyRange range, List<String[]> drift) {
        ranges++;
        keys += range.keys();
        for (String[] d : drift) {
            switch (d[0]) {
                case "missing" -> missing++;
                case "extra" -> extra++;
                default -> differs++;
            }
            if (sample.size() < SAMPLE) {
                sample.add(d[0] + " " + d[1]);
            }
        }
        after = range.through();
        done = range.through() == null;
    }

    /** {@code no drift}, or {@code 3 drifted keys (1 missing, 0 extra, 2 differs)[, repaired]: missing (1); …}. */
    String summary(boolean repaired) {
        long drifted = missing + extra + differs;
        if (drifted == 0) {
            return "no drift";
        }
        return drifted + " drifted keys (" + missing + " missing, " + extra + " extra, " + differs + " differs)"
                + (repaired ? ", repaired" : "") + ": " + String.join("; ", sample);
    }

    List<String> keyColumns() {
        return keyColumns;
    }

    List<Object> after() {
        return after;
    }

    public boolean done() {
        return done;
    }

    public long ranges() {
        return ranges;
    }

    public long keys() {
        return keys;
    }

    public long expected() {
        return expected;
    }

    public long drifted() {
        return missing + extra + differs;
    }
}
