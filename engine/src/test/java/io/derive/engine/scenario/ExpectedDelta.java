package io.derive.engine.scenario;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The exact changes one statement makes a materialized view's backing report ({@code -- expect:
 * delta view}): the {@code BackingRowChange}s of every {@code BackingHost.applyMaintenance} call
 * the statement caused on that backing, compared as a bag.
 *
 * @param view    the MV, as its backing is named ({@code name}, or {@code schema.name})
 * @param changes the changes, none when the statement must leave the backing untouched
 */
public record ExpectedDelta(String view, List<Change> changes) {
    public ExpectedDelta {
        changes = List.copyOf(changes);
    }

    /** What happened to one backing row. */
    public enum Kind { INSERT, DELETE, UPDATE }

    /**
     * One reported change, its rows as {@link ValueText} renders them.
     *
     * @param before the row before, null for an insert
     * @param after  the row after, null for a delete
     */
    public record Change(Kind kind, List<String> before, List<String> after) {
        public Change {
            before = before == null ? null : List.copyOf(before);
            after = after == null ? null : List.copyOf(after);
        }

        public static Change insert(List<String> row) {
            return new Change(Kind.INSERT, null, row);
        }

        public static Change delete(List<String> row) {
            return new Change(Kind.DELETE, row, null);
        }

        public static Change update(List<String> before, List<String> after) {
            return new Change(Kind.UPDATE, before, after);
        }

        /** The change's lines of a delta table: one for an insert or a delete, two for an update. */
        List<List<String>> lines() {
            return switch (kind) {
                case INSERT -> List.of(line("insert", after));
                case DELETE -> List.of(line("delete", before));
                case UPDATE -> List.of(line("update", before), line("to", after));
            };
        }

        private static List<String> line(String marker, List<String> row) {
            List<String> line = new ArrayList<>(row.size() + 1);
            line.add(marker);
            line.addAll(row);
            return line;
        }

        private String sortKey() {
            return String.join("\u0000", lines().stream().map(l -> String.join("\u0001", l)).toList());
        }
    }

    /** Whether {@code actual} holds the same changes as {@code expected}, in any order. */
    public static boolean matches(List<Change> expected, List<Change> actual) {
        return sorted(expected).equals(sorted(actual));
    }

    private static List<Change> sorted(List<Change> changes) {
        List<Change> copy = new ArrayList<>(changes);
        copy.sort(Comparator.comparing(Change::sortKey));
        return copy;
    }

    /** The changes in the file's layout, for failure messages; {@code (no changes)} when empty. */
    public static String table(List<Change> changes) {
        if (changes.isEmpty()) {
            return "  (no changes)\n";
        }
        List<List<String>> lines = new ArrayList<>();
        changes.forEach(c -> lines.addAll(c.lines()));
        int[] widths = new int[lines.stream().mapToInt(List::size).max().orElse(0)];
        for (List<String> line : lines) {
            for (int i = 0; i < line.size(); i++) {
                widths[i] = Math.max(widths[i], line.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> line : lines) {
            out.append("  |");
            for (int i = 0; i < line.size(); i++) {
                String cell = line.get(i);
                String pad = " ".repeat(widths[i] - cell.length());
                out.append(' ').append(i == 0 ? pad + cell : cell + pad).append(" |");
            }
            out.append('\n');
        }
        return out.toString();
    }

    /**
     * The difference of two deltas for a failure message: each expected change that was not
     * reported, prefixed {@code -}, and each reported change that was not expected, prefixed {@code +}.
     */
    public static String difference(List<Change> expected, List<Change> actual) {
        List<Change> missing = new ArrayList<>(expected);
        List<Change> unexpected = new ArrayList<>();
        for (Change change : actual) {
            if (!missing.remove(change)) {
                unexpected.add(change);
            }
        }
        StringBuilder out = new StringBuilder();
        for (Change change : missing) {
            prefixed(out, "- ", change);
        }
        for (Change change : unexpected) {
            prefixed(out, "+ ", change);
        }
        return out.toString();
    }

    private static void prefixed(StringBuilder out, String prefix, Change change) {
        for (String line : table(List.of(change)).split("\n")) {
            out.append(prefix).append(line.strip()).append('\n');
        }
    }

    /** Whether a backing named {@code name} in {@code schema} is the one {@link #view} names (case-insensitively). */
    public boolean names(String schema, String name) {
        String wanted = view.toLowerCase(Locale.ROOT);
        return wanted.contains(".") ? wanted.equals((schema + "." + name).toLowerCase(Locale.ROOT))
                : wanted.equals(name.toLowerCase(Locale.ROOT));
    }
}
