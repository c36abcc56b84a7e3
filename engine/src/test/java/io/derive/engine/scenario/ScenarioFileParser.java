package io.derive.engine.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a scenario file. The format:
 * <pre>
 * -- Statements before the first case are setup, run at the start of every case.
 * -- case: a name unique in the file        (starts a case on a fresh database)
 * -- pending: the feature it waits for      (optional; the case is reported as skipped)
 * -- derive-only: why SQLite cannot check it (optional; see ScenarioOracle)
 * create table t (k integer primary key, v text);
 * insert into t values (1, 'a'), (2, null);
 * -- expect: count 2                        (applies to the statement just above)
 * select k, v from t order by k;
 * -- expect: rows (ordered)                 (or "rows" for a bag comparison)
 * -- | 1 | a    |
 * -- | 2 | NULL |
 * -- expect: columns k, v                   (optional, with or without rows)
 * select * from nope;
 * -- expect: error no such table: nope      (message fragment, case-insensitive)
 * create materialized view m as select k, v from t;
 * update t set v = 'b' where k = 1;
 * -- expect: delta m                        (the changes m's backing reports, as a bag)
 * -- | update | 1 | a |                     (an update: the row before, then after it)
 * -- |     to | 1 | b |
 * delete from t where k = 2;
 * -- expect: delta m
 * -- | delete | 2 | NULL |                  (or insert; no lines: no change at all)
 * </pre>
 * Statements are split at top-level semicolons (never inside strings, quoted names or comments);
 * other comments are ignored. A statement without a directive must succeed. Values are written
 * as {@link ValueText} renders them.
 */
public final class ScenarioFileParser {
    private final String file;
    private final List<ScenarioCase> cases = new ArrayList<>();
    private final List<ScenarioStep> setup = new ArrayList<>();
    private final Set<String> names = new LinkedHashSet<>();

    private String caseName;
    private int caseLine;
    private String pending;
    private String deriveOnly;
    private List<ScenarioStep> steps = setup;
    private ScenarioStep last;
    private List<List<String>> openRows;
    private List<Integer> openRowLines;
    private RowsClosed onRowsClosed;

    // Statement splitter state, carried across lines.
    private final StringBuilder statement = new StringBuilder();
    private int statementLine;
    private char quote;
    private boolean blockComment;

    /** What the row lines under a directive become once they end. */
    private interface RowsClosed {
        ScenarioStep close(List<List<String>> rows, List<Integer> lines);
    }

    private ScenarioFileParser(String file) {
        this.file = file;
    }

    /**
     * Parses a whole file.
     *
     * @throws IllegalArgumentException naming file and line for a malformed directive
     */
    public static List<ScenarioCase> parse(String file, String text) {
        ScenarioFileParser parser = new ScenarioFileParser(file);
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            parser.line(lines[i], i + 1);
        }
        parser.endCase(lines.length);
        return parser.cases;
    }

    private void line(String line, int number) {
        String trimmed = line.strip();
        if (atTopLevel() && trimmed.startsWith("--")) {
            directive(trimmed.substring(2).strip(), number);
            return;
        }
        if (!trimmed.isEmpty()) {
            closeRows();
        }
        scan(line, number);
    }

    private boolean atTopLevel() {
        return quote == 0 && !blockComment;
    }

    private void directive(String text, int number) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (text.startsWith("|")) {
            if (openRows == null) {
                throw malformed(number, "a row line must follow '-- expect: rows' or '-- expect: delta'");
            }
            openRows.add(ValueText.parseCells(text));
            openRowLines.add(number);
            return;
        }
        closeRows();
        if (lower.startsWith("case:")) {
            endCase(number);
            caseName = text.substring(5).strip();
            caseLine = number;
            if (caseName.isEmpty() || !names.add(caseName)) {
                throw malformed(number, "case name empty or used twice: '" + caseName + "'");
            }
            steps = new ArrayList<>();
        } else if (lower.startsWith("pending:")) {
            requireCase(number);
            pending = text.substring(8).strip();
        } else if (lower.startsWith("derive-only:")) {
            requireCase(number);
            deriveOnly = text.substring(12).strip();
        } else if (lower.startsWith("expect:")) {
            expect(text.substring(7).strip(), number);
        }
    }

    private void requireCase(int number) {
        if (caseName == null) {
            throw malformed(number, "this directive belongs inside a case");
        }
    }

    private void expect(String what, int number) {
        flushTrailingStatement(number);
        if (last == null) {
            throw malformed(number, "an expectation needs a statement above it");
        }
        String lower = what.toLowerCase(Locale.ROOT);
        if (lower.startsWith("columns")) {
            List<String> columns = Arrays.stream(what.substring(7).split(",")).map(String::strip).toList();
            replaceLast(last.withColumns(columns));
            return;
        }
        if (lower.startsWith("delta")) {
            delta(what.substring(5).strip(), number);
            return;
        }
        if (!(last.expectation() instanceof Expectation.Success)) {
            throw malformed(number, "the statement above already has a result expectation");
        }
        if (lower.startsWith("rows")) {
            String mode = lower.substring(4).strip();
            if (!mode.isEmpty() && !mode.equals("(ordered)") && !mode.equals("(unordered)")) {
                throw malformed(number, "expected 'rows', 'rows (ordered)' or 'rows (unordered)'");
            }
            boolean ordered = mode.equals("(ordered)");
            replaceLast(last.withExpectation(new Expectation.Rows(ordered, List.of())));
            openRows((rows, lines) -> last.withExpectation(new Expectation.Rows(ordered, rows)));
        } else if (lower.startsWith("error")) {
            if (!last.deltas().isEmpty()) {
                throw malformed(number, "a statement with an expected delta must succeed");
            }
            replaceLast(last.withExpectation(new Expectation.Error(what.substring(5).strip())));
        } else if (lower.startsWith("count")) {
            try {
                replaceLast(last.withExpectation(new Expectation.Count(Long.parseLong(what.substring(5).strip()))));
            } catch (NumberFormatException e) {
                throw malformed(number, "expected 'count N'");
            }
        } else {
            throw malformed(number, "unknown expectation '" + what + "' (rows, error, count, columns, delta)");
        }
    }

    /** {@code -- expect: delta view}: the row lines below it are the changes, none when there are none. */
    private void delta(String view, int number) {
        if (view.isEmpty() || view.contains(" ")) {
            throw malformed(number, "expected 'delta VIEW', naming one materialized view");
        }
        if (last.expectation() instanceof Expectation.Error) {
            throw malformed(number, "a statement with an expected delta must succeed");
        }
        if (last.deltas().stream().anyMatch(d -> d.view().equalsIgnoreCase(view))) {
            throw malformed(number, "the statement above already has a delta for '" + view + "'");
        }
        replaceLast(last.withDelta(new ExpectedDelta(view, List.of())));
        openRows((rows, lines) -> {
            List<ExpectedDelta> deltas = new ArrayList<>(last.deltas());
            deltas.set(deltas.size() - 1, new ExpectedDelta(view, changes(rows, lines)));
            return new ScenarioStep(last.sql(), last.line(), last.expectation(), last.columns(), deltas);
        });
    }

    /** Delta lines: {@code | insert | row |}, {@code | delete | row |}, or {@code | update | row |} then {@code | to | row |}. */
    private List<ExpectedDelta.Change> changes(List<List<String>> rows, List<Integer> lines) {
        List<ExpectedDelta.Change> changes = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            List<String> cells = rows.get(i);
            List<String> row = cells.subList(1, cells.size());
            switch (cells.get(0).toLowerCase(Locale.ROOT)) {
                case "insert" -> changes.add(ExpectedDelta.Change.insert(row));
                case "delete" -> changes.add(ExpectedDelta.Change.delete(row));
                case "update" -> {
                    List<String> next = i + 1 < rows.size() ? rows.get(i + 1) : List.of();
                    if (next.isEmpty() || !next.get(0).equalsIgnoreCase("to")) {
                        throw malformed(lines.get(i), "an 'update' line must be followed by its 'to' line");
                    }
                    if (next.size() != cells.size()) {
                        throw malformed(lines.get(i + 1), "the 'to' line has " + (next.size() - 1)
                                + " values, its 'update' line " + row.size());
                    }
                    changes.add(ExpectedDelta.Change.update(row, next.subList(1, next.size())));
                    i++;
                }
                case "to" -> throw malformed(lines.get(i), "a 'to' line must follow an 'update' line");
                default -> throw malformed(lines.get(i), "a delta line starts with insert, delete, update or to: "
                        + cells.get(0));
            }
        }
        return changes;
    }

    private void openRows(RowsClosed closed) {
        openRows = new ArrayList<>();
        openRowLines = new ArrayList<>();
        onRowsClosed = closed;
    }

    private void replaceLast(ScenarioStep step) {
        last = step;
        steps.set(steps.size() - 1, last);
    }

    /** Row lines end at the first line that is not one: they become the rows of the last statement. */
    private void closeRows() {
        if (openRows != null) {
            List<List<String>> rows = openRows;
            openRows = null;
            replaceLast(onRowsClosed.close(rows, openRowLines));
        }
    }

    private void scan(String line, int number) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            char next = i + 1 < line.length() ? line.charAt(i + 1) : 0;
            if (blockComment) {
                if (c == '*' && next == '/') {
                    blockComment = false;
                    i++;
                }
                continue;
            }
            if (quote != 0) {
                statement.append(c);
                if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '-' && next == '-') {
                break;
            }
            if (c == '/' && next == '*') {
                blockComment = true;
                i++;
                continue;
            }
            if (c == ';') {
                endStatement();
                continue;
            }
            if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '[') {
                quote = ']';
            }
            if (statement.toString().isBlank() && !Character.isWhitespace(c)) {
                statement.setLength(0);
                statementLine = number;
            }
            statement.append(c);
        }
        if (quote != 0 || !statement.isEmpty()) {
            statement.append('\n');
        }
    }

    private void endStatement() {
        String sql = statement.toString().strip();
        statement.setLength(0);
        if (!sql.isEmpty()) {
            last = new ScenarioStep(sql, statementLine, new Expectation.Success(), null);
            steps.add(last);
        }
    }

    /** A statement whose semicolon is missing before a directive still counts. */
    private void flushTrailingStatement(int number) {
        if (quote != 0 || blockComment) {
            throw malformed(number, "unterminated string, quoted name or comment");
        }
        endStatement();
    }

    private void endCase(int number) {
        closeRows();
        flushTrailingStatement(number);
        if (caseName != null) {
            cases.add(new ScenarioCase(file, caseName, caseLine, pending, deriveOnly, mergedSteps()));
        }
        caseName = null;
        pending = null;
        deriveOnly = null;
        last = null;
        openRows = null;
    }

    private List<ScenarioStep> mergedSteps() {
        List<ScenarioStep> all = new ArrayList<>(setup);
        all.addAll(steps);
        return all;
    }

    private IllegalArgumentException malformed(int number, String why) {
        return new IllegalArgumentException(file + ":" + number + ": " + why);
    }
}
