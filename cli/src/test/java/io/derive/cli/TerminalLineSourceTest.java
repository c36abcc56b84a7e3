package io.derive.cli;

import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The JLine-backed line source, on a dumb terminal over in-memory streams. */
class TerminalLineSourceTest {

    @TempDir
    Path dir;

    @Test
    void sqlReachesTheShellUntouched() throws Exception {
        try (TerminalLineSource lines = source("select 'a\\b' != \"c\" -- !x\n")) {
            assertThat(lines.readLine("derive> ")).isEqualTo("select 'a\\b' != \"c\" -- !x");
        }
    }

    @Test
    void unclosedQuoteEndsTheLineSoTheShellDecidesWhenAStatementIsComplete() throws Exception {
        try (TerminalLineSource lines = source("select 'open\nclosed';\n")) {
            assertThat(lines.readLine("derive> ")).isEqualTo("select 'open");
            assertThat(lines.readLine("   ...> ")).isEqualTo("closed';");
        }
    }

    @Test
    void endOfInputIsNull() throws Exception {
        try (TerminalLineSource lines = source("")) {
            assertThat(lines.readLine("derive> ")).isNull();
        }
    }

    @Test
    void linesAreKeptInTheHistoryFile() throws Exception {
        Path history = dir.resolve("history");
        try (TerminalLineSource lines = new TerminalLineSource(terminal("select 1;\n"), history)) {
            lines.readLine("derive> ");
        }

        assertThat(Files.readString(history)).contains("select 1;");
    }

    private TerminalLineSource source(String input) throws IOException {
        return new TerminalLineSource(terminal(input), null);
    }

    private static Terminal terminal(String input) throws IOException {
        return new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), new ByteArrayOutputStream());
    }
}
