package io.derive.engine.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One entry of the bad-input corpus: a statement Derive must refuse, and the message fragments
 * of which the error must contain one.
 *
 * @param line      line of the entry in the corpus file
 * @param statement the statement, or a {@code @generate NAME N} directive
 * @param fragments accepted message fragments
 * @param pending   why the engine does not satisfy it yet, or null
 */
public record BadInput(int line, String statement, List<String> fragments, String pending) {
    public BadInput {
        fragments = List.copyOf(fragments);
    }

    /** Reads the corpus format described at the top of {@code corpus.txt}. */
    public static List<BadInput> parse(String text) {
        List<BadInput> entries = new ArrayList<>();
        StringBuilder statement = new StringBuilder();
        int start = 0;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith("#") || (line.isBlank() && statement.isEmpty())) {
                continue;
            }
            if (line.startsWith("=>")) {
                if (statement.isEmpty()) {
                    throw new IllegalArgumentException("corpus line " + (i + 1) + ": '=>' without a statement");
                }
                List<String> fragments = Arrays.stream(line.substring(2).split("\\|\\|")).map(String::strip).toList();
                String pending = null;
                if (i + 1 < lines.length && lines[i + 1].startsWith("pending:")) {
                    pending = lines[++i].substring(8).strip();
                }
                entries.add(new BadInput(start, statement.toString().strip(), fragments, pending));
                statement.setLength(0);
                continue;
            }
            if (statement.isEmpty()) {
                start = i + 1;
            }
            statement.append(line).append('\n');
        }
        if (!statement.isEmpty()) {
            throw new IllegalArgumentException("corpus line " + start + ": statement without '=>' fragment");
        }
        return entries;
    }

    /** The statement to run: a generated one for {@code @generate}, else the text as written. */
    public String sql() {
        if (!statement.startsWith("@generate")) {
            return statement;
        }
        String[] parts = statement.split("\\s+");
        return BadInputGenerator.generate(parts[1], Integer.parseInt(parts[2]));
    }

    /** A short name for the test report. */
    public String title() {
        String oneLine = statement.replace('\n', ' ');
        return "line " + line + ": " + (oneLine.length() > 70 ? oneLine.substring(0, 70) + "…" : oneLine);
    }
}
