package io.derive.cli.slt;

/** A sqllogictest file is not in the format; the message names the file and line. */
public final class SltFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SltFormatException(String message) {
        super(message);
    }
}
