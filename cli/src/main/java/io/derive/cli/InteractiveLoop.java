package io.derive.cli;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.Lexer;
import io.derive.engine.sql.Token;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The read-run-print loop: lines are collected until the last token is a semicolon, then the
 * collected statements run; an error is printed and the loop goes on. {@code .quit} at the start
 * of a statement, or the end of input, ends the loop; text left without its semicolon at the end
 * of input still runs.
 */
final class InteractiveLoop {
    static final String PROMPT = "derive> ";
    static final String CONTINUATION_PROMPT = "   ...> ";
    private static final String QUIT = ".quit";

    private final ScriptExecutor executor;
    private final PrintWriter out;
    private final PrintWriter err;

    InteractiveLoop(ScriptExecutor executor, PrintWriter out, PrintWriter err) {
        this.executor = executor;
        this.out = out;
        this.err = err;
    }

    void run(Reader input) {
        BufferedReader lines = new BufferedReader(input);
        StringBuilder statement = new StringBuilder();
        while (true) {
            out.print(statement.length() == 0 ? PROMPT : CONTINUATION_PROMPT);
            out.flush();
            String line = readLine(lines);
            if (line == null) {
                out.println();
                runCollected(statement);
                return;
            }
            if (statement.length() == 0 && line.strip().equals(QUIT)) {
                return;
            }
            if (statement.length() == 0 && line.isBlank()) {
                continue;
            }
            statement.append(line).append('\n');
            if (complete(statement)) {
                runCollected(statement);
            }
        }
    }

    private void runCollected(StringBuilder statement) {
        String text = statement.toString();
        statement.setLength(0);
        if (text.isBlank()) {
            return;
        }
        executor.run(text).ifPresent(f -> {
            err.println("error: " + f.message() + " at " + f.line() + ":" + f.column());
            err.flush();
        });
    }

    private static boolean complete(CharSequence text) {
        List<Token> tokens;
        try {
            tokens = Lexer.tokenize(text.toString());
        } catch (DeriveException e) {
            // An unlexable text that looks finished is run, so that the parser reports the error.
            return text.toString().strip().endsWith(";");
        }
        return tokens.size() >= 2 && tokens.get(tokens.size() - 2).isOperator(";");
    }

    private static String readLine(BufferedReader lines) {
        try {
            return lines.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the input", e);
        }
    }
}
