package io.derive.cli;

import io.derive.engine.api.Result;
import io.derive.engine.api.StatementKind;

import java.io.PrintWriter;

/**
 * The human-readable output: the rows of a query (or of a write's {@code returning}) as a
 * {@link TextTable} followed by a row count, a write's count of changed rows, nothing for any
 * other statement without rows (DDL, transaction control, setting a pragma); failures on the
 * error stream, in one of two {@linkplain FailureStyle styles}.
 */
final class TableOutput implements StatementOutcomes {

    /** How a failure reads. */
    enum FailureStyle {
        /** {@code SCRIPT:line:column: message}, the form editors and build tools jump from. */
        LOCATED,
        /** The message, then the statement with a caret under the error, for a person at a prompt. */
        CARET
    }

    private static final String INDENT = "  ";

    private final PrintWriter out;
    private final PrintWriter err;
    private final FailureStyle style;

    TableOutput(PrintWriter out, PrintWriter err, FailureStyle style) {
        this.out = out;
        this.err = err;
        this.style = style;
    }

    @Override
    public void succeeded(ScriptStatement statement, Result result) {
        if (!result.columns().isEmpty()) {
            TextTable.render(result).forEach(out::println);
            out.println("(" + rows(result.rows().size()) + ")");
        } else if (result.kind() == StatementKind.INSERT) {
            out.println(rows(result.updateCount()) + " inserted");
        } else if (result.kind() == StatementKind.UPDATE) {
            out.println(rows(result.updateCount()) + " updated");
        } else if (result.kind() == StatementKind.DELETE) {
            out.println(rows(result.updateCount()) + " deleted");
        }
        out.flush();
    }

    @Override
    public void failed(ScriptStatement statement, StatementFailure failure) {
        out.flush();
        if (style == FailureStyle.LOCATED) {
            err.println(statement.script().name() + ":" + failure.line() + ":" + failure.column() + ": "
                    + failure.message());
        } else {
            err.println("error: " + failure.message());
            showWithCaret(statement, failure);
        }
        err.flush();
    }

    private void showWithCaret(ScriptStatement statement, StatementFailure failure) {
        Script script = statement.script();
        int last = Math.max(statement.lastLine(), failure.line());
        for (int line = statement.line(); line <= last; line++) {
            String text = script.lineText(line);
            err.println(INDENT + text);
            if (line == failure.line()) {
                err.println(INDENT + blankedPrefix(text, failure.column() - 1) + "^");
            }
        }
    }

    /** The first {@code length} characters as blanks, tabs kept, so a caret after them lines up. */
    private static String blankedPrefix(String text, int length) {
        StringBuilder blanks = new StringBuilder();
        text.codePoints().limit(length).forEach(c -> blanks.append(c == '\t' ? '\t' : ' '));
        return blanks.toString();
    }

    private static String rows(long count) {
        return count + (count == 1 ? " row" : " rows");
    }
}
