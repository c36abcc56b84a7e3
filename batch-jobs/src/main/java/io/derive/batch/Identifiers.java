package io.derive.batch;

import java.util.regex.Pattern;

/** Checks names before they are put into SQL text, where parameters cannot stand for them. */
public final class Identifiers {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    private Identifiers() {
    }

    /** True for a plain unquoted SQL identifier: a letter or underscore, then letters, digits, underscores. */
    public static boolean isIdentifier(String name) {
        return name != null && IDENTIFIER.matcher(name).matches();
    }
}
