package io.derive.it;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a test client speaks to the test module's servlets ({@code /derive-test/scenario} and
 * {@code /derive-test/load}), which answer {@code name=value} lines.
 */
public final class Scenarios {
    private Scenarios() {
    }

    /** The path that runs scenario {@code op} on table {@code table}, with extra parameters given as name, value, …. */
    static String path(String op, String table, String... extra) {
        StringBuilder path = new StringBuilder("/derive-test/scenario?op=" + op + "&t=" + table);
        for (int i = 0; i < extra.length; i += 2) {
            path.append('&').append(extra[i]).append('=').append(extra[i + 1]);
        }
        return path.toString();
    }

    /** The servlet's {@code name=value} lines; a name given on several lines maps to them joined by newlines. */
    public static Map<String, String> answer(String body) {
        Map<String, String> lines = new LinkedHashMap<>();
        for (String line : body.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                lines.merge(line.substring(0, eq), line.substring(eq + 1), (a, b) -> a + "\n" + b);
            }
        }
        return lines;
    }
}
