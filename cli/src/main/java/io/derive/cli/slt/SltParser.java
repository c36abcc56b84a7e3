package io.derive.cli.slt;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits the text of a sqllogictest file into {@link SltRecord}s. Records are separated by blank
 * lines; {@code #} starts a comment line; {@code skipif}/{@code onlyif} lines belong to the record
 * that follows them. A line the format does not know is reported with its line number.
 */
final class SltParser {
    private final String file;
    private final List<String> lines;
    private int next;

    private SltParser(String file, String text) {
        this.file = file;
        this.lines = text.lines().map(SltParser::stripLineEnd).toList();
    }

    /** The records of {@code text}, read from {@code file} (for messages). */
    static List<SltRecord> parse(String file, String text) {
        return new SltParser(file, text).records();
    }

    private List<SltRecord> records() {
        List<SltRecord> records = new ArrayList<>();
        List<SltRecord.Condition> conditions = new ArrayList<>();
        while (next < lines.size()) {
            String line = lines.get(next);
            int lineNumber = next + 1;
            String[] words = words(line);
            next++;
            if (words.length == 0) {
                if (!conditions.isEmpty()) {
                    throw malformed(lineNumber, "a condition must be followed by its record");
                }
                continue;
            }
            switch (words[0]) {
                case "skipif", "onlyif" ->
                        conditions.add(new SltRecord.Condition(words[0].equals("onlyif"), word(words, 1, lineNumber)));
                case "statement" -> {
                    records.add(statement(lineNumber, List.copyOf(conditions), words));
                    conditions.clear();
                }
                case "query" -> {
                    records.add(query(lineNumber, List.copyOf(conditions), words));
                    conditions.clear();
                }
                case "hash-threshold" -> {
                    int threshold = number(word(words, 1, lineNumber), lineNumber);
                    records.add(new SltRecord.HashThreshold(lineNumber, List.copyOf(conditions), threshold));
                    conditions.clear();
                }
                case "halt" -> {
                    records.add(new SltRecord.Halt(lineNumber, List.copyOf(conditions)));
                    conditions.clear();
                }
                default -> throw malformed(lineNumber, "unknown record '" + words[0] + "'");
            }
        }
        return records;
    }

    private SltRecord statement(int lineNumber, List<SltRecord.Condition> conditions, String[] words) {
        String outcome = word(words, 1, lineNumber);
        if (!outcome.equals("ok") && !outcome.equals("error")) {
            throw malformed(lineNumber, "a statement expects 'ok' or 'error', not '" + outcome + "'");
        }
        List<String> sql = new ArrayList<>();
        while (next < lines.size() && !lines.get(next).isBlank()) {
            sql.add(lines.get(next++));
        }
        return new SltRecord.Statement(lineNumber, conditions, outcome.equals("error"), sql(sql, lineNumber));
    }

    private SltRecord query(int lineNumber, List<SltRecord.Condition> conditions, String[] words) {
        String types = word(words, 1, lineNumber);
        if (!types.matches("[ITR]+")) {
            throw malformed(lineNumber, "query column types must be letters I, T or R, not '" + types + "'");
        }
        SortMode sort = words.length > 2 ? SortMode.named(words[2]) : SortMode.NOSORT;
        if (sort == null) {
            throw malformed(lineNumber, "unknown sort mode '" + words[2] + "'");
        }
        String label = words.length > 3 ? words[3] : null;
        List<String> sql = new ArrayList<>();
        while (next < lines.size() && !lines.get(next).isBlank() && !isSeparator(lines.get(next))) {
            sql.add(lines.get(next++));
        }
        List<String> expected = new ArrayList<>();
        if (next < lines.size() && isSeparator(lines.get(next))) {
            next++;
            while (next < lines.size() && !lines.get(next).isBlank()) {
                expected.add(lines.get(next++));
            }
        }
        return new SltRecord.Query(lineNumber, conditions, types, sort, label, sql(sql, lineNumber),
                ExpectedResult.of(expected));
    }

    private String sql(List<String> sql, int lineNumber) {
        if (sql.isEmpty()) {
            throw malformed(lineNumber, "the record has no SQL");
        }
        return String.join("\n", sql);
    }

    private String word(String[] words, int index, int lineNumber) {
        if (index >= words.length) {
            throw malformed(lineNumber, "'" + words[0] + "' is incomplete");
        }
        return words[index];
    }

    private int number(String word, int lineNumber) {
        try {
            return Integer.parseInt(word);
        } catch (NumberFormatException e) {
            throw malformed(lineNumber, "'" + word + "' is not a number");
        }
    }

    private SltFormatException malformed(int lineNumber, String why) {
        return new SltFormatException(file + ":" + lineNumber + ": " + why);
    }

    /** The words of a control line; a {@code #} word starts a trailing comment. */
    private static String[] words(String line) {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
            return new String[0];
        }
        int comment = trimmed.indexOf(" #");
        String content = comment < 0 ? trimmed : trimmed.substring(0, comment).strip();
        return content.split("\\s+");
    }

    private static boolean isSeparator(String line) {
        return line.strip().equals("----");
    }

    private static String stripLineEnd(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }
}
