package io.derive.cli;

/** Where the interactive loop reads its lines: a terminal with line editing, or plain input. */
interface LineSource extends AutoCloseable {

    /**
     * The next line without its line end, after showing {@code prompt} where that means something.
     *
     * @return the line, or null at the end of input
     * @throws Interrupted when the user asked to abandon what they were typing (Ctrl-C)
     */
    String readLine(String prompt) throws Interrupted;

    @Override
    void close();

    /** The user abandoned the statement being typed. */
    final class Interrupted extends Exception {
        private static final long serialVersionUID = 1L;

        Interrupted() {
            super("interrupted");
        }
    }
}
