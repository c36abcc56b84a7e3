package io.derive.cli;

/**
 * The read-run-print loop: lines are collected until they end after a top-level semicolon (a
 * string, quoted name or comment may span lines), then the collected statements run and the
 * loop goes on, whatever failed. {@code .quit} at the start of a statement, or the end of input,
 * ends the loop; text left without its semicolon at the end of input still runs. Ctrl-C abandons
 * the statement being typed.
 */
final class InteractiveLoop {
    static final String PROMPT = "derive> ";
    static final String CONTINUATION_PROMPT = "   ...> ";
    /** What failures are called in messages: the statements typed since the last prompt. */
    static final String INPUT_NAME = "input";
    private static final String QUIT = ".quit";

    private final ScriptRunner runner;

    InteractiveLoop(ScriptRunner runner) {
        this.runner = runner;
    }

    void run(LineSource lines) {
        StringBuilder collected = new StringBuilder();
        while (true) {
            String line;
            try {
                line = lines.readLine(collected.length() == 0 ? PROMPT : CONTINUATION_PROMPT);
            } catch (LineSource.Interrupted e) {
                collected.setLength(0);
                continue;
            }
            if (line == null) {
                runCollected(collected);
                return;
            }
            if (collected.length() == 0 && line.strip().equals(QUIT)) {
                return;
            }
            if (collected.length() == 0 && line.isBlank()) {
                continue;
            }
            collected.append(line).append('\n');
            Script script = Script.of(INPUT_NAME, collected.toString());
            if (script.complete()) {
                collected.setLength(0);
                runner.run(script);
            }
        }
    }

    private void runCollected(StringBuilder collected) {
        String text = collected.toString();
        collected.setLength(0);
        runner.run(Script.of(INPUT_NAME, text));
    }
}
