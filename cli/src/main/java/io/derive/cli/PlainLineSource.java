package io.derive.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;

/**
 * Lines from input that is not a terminal, such as a pipe. Nobody is there to read a prompt, and
 * one would mix into the output that a tool reads, so none is shown.
 */
final class PlainLineSource implements LineSource {
    private final BufferedReader lines;

    PlainLineSource(Reader input) {
        this.lines = new BufferedReader(input);
    }

    @Override
    public String readLine(String prompt) {
        try {
            return lines.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the input", e);
        }
    }

    @Override
    public void close() {
        // The input belongs to whoever gave it; the shell does not close it.
    }
}
