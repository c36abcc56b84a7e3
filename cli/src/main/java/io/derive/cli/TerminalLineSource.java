package io.derive.cli;

import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** Lines from a terminal through JLine: editing, and a history kept in a file across sessions. */
final class TerminalLineSource implements LineSource {
    private final Terminal terminal;
    private final LineReader reader;

    /**
     * @param terminal    the terminal to read from; closed with this source
     * @param historyFile where the history is kept, or null for history in memory only
     */
    TerminalLineSource(Terminal terminal, Path historyFile) {
        this.terminal = terminal;
        LineReaderBuilder builder = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("derive")
                // SQL has its own quoting: backslashes and quotes must reach the lexer untouched,
                // and '!' is an operator (!=), not a history reference.
                .parser(new DefaultParser().escapeChars(new char[0]).eofOnUnclosedQuote(false))
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true);
        if (historyFile != null) {
            builder.variable(LineReader.HISTORY_FILE, historyFile);
        }
        this.reader = builder.build();
    }

    @Override
    public String readLine(String prompt) throws Interrupted {
        try {
            return reader.readLine(prompt);
        } catch (UserInterruptException e) {
            throw new Interrupted();
        } catch (EndOfFileException e) {
            return null;
        }
    }

    @Override
    public void close() {
        // JLine appends each line to the history file as it is read, so there is nothing to save.
        try {
            terminal.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the terminal", e);
        }
    }
}
