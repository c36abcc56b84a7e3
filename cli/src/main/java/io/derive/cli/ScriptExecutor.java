package io.derive.cli;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.SourceSpan;
import io.derive.engine.sql.ast.Statement;

import java.util.List;
import java.util.Optional;

/**
 * Runs the statements of a piece of SQL text one by one on a session, printing each result, and
 * stops at the first failure. A failure's position is translated from the failing statement's
 * own text to the whole text, so it points at the right line of a script file.
 *
 * <p>The whole text is parsed before anything runs, so a syntax error anywhere runs nothing.
 */
final class ScriptExecutor {
    private final Session session;
    private final ResultPrinter printer;

    ScriptExecutor(Session session, ResultPrinter printer) {
        this.session = session;
        this.printer = printer;
    }

    /** Runs every statement of {@code text}; empty when all succeeded. */
    Optional<Failure> run(String text) {
        List<Statement> statements;
        try {
            statements = Parser.parseScript(text);
        } catch (DeriveException e) {
            return Optional.of(new Failure(Math.max(1, e.line()), Math.max(1, e.column()), reason(e)));
        }
        for (Statement statement : statements) {
            SourceSpan span = statement.span();
            try {
                printer.print(statement, session.execute(span.text(text)));
            } catch (DeriveException e) {
                return Optional.of(failureIn(span, e));
            }
        }
        return Optional.empty();
    }

    private static Failure failureIn(SourceSpan statement, DeriveException e) {
        if (e.line() <= 0) {
            return new Failure(statement.line(), statement.column(), reason(e));
        }
        int line = statement.line() + e.line() - 1;
        // Only the statement's first line is shifted right by where the statement starts.
        int column = e.line() == 1 ? statement.column() + e.column() - 1 : e.column();
        return new Failure(line, column, reason(e));
    }

    /** The message without the {@code at line:column} suffix, which is relative to the statement. */
    private static String reason(DeriveException e) {
        String message = e.getMessage();
        if (e.line() <= 0) {
            return message;
        }
        int suffix = message.lastIndexOf(" at ");
        return suffix < 0 ? message : message.substring(0, suffix);
    }

    /**
     * Why and where a run stopped.
     *
     * @param line    1-based line in the text given to {@link #run}
     * @param column  1-based column in that line
     * @param message the engine's message, without position
     */
    record Failure(int line, int column, String message) {
    }
}
