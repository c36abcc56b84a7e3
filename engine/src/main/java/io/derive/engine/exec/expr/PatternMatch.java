package io.derive.engine.exec.expr;

/** SQLite's {@code like} and {@code glob} matching. */
final class PatternMatch {
    private PatternMatch() {
    }

    /** {@code %} any run, {@code _} one character; ASCII letters match case-insensitively. */
    static boolean like(String s, String pattern) {
        return like(s, pattern, -1);
    }

    /** As {@link #like(String, String)}, where {@code escape} (or -1 for none) makes the next pattern character literal. */
    static boolean like(String s, String pattern, int escape) {
        return match(s, 0, pattern, 0, true, escape);
    }

    /** {@code *} any run, {@code ?} one character, {@code [...]} a class; case-sensitive. */
    static boolean glob(String s, String pattern) {
        return match(s, 0, pattern, 0, false, -1);
    }

    private static boolean match(String s, int si, String p, int pi, boolean like, int escape) {
        while (pi < p.length()) {
            char c = p.charAt(pi);
            if (c == escape && pi + 1 < p.length()) {
                if (si >= s.length() || fold(s.charAt(si)) != fold(p.charAt(pi + 1))) {
                    return false;
                }
                si++;
                pi += 2;
                continue;
            }
            if (c == (like ? '%' : '*')) {
                while (pi < p.length() && p.charAt(pi) == c) {
                    pi++;
                }
                if (pi == p.length()) {
                    return true;
                }
                for (int k = si; k <= s.length(); k++) {
                    if (match(s, k, p, pi, like, escape)) {
                        return true;
                    }
                }
                return false;
            }
            if (si >= s.length()) {
                return false;
            }
            if (c == (like ? '_' : '?')) {
                si++;
                pi++;
            } else if (!like && c == '[') {
                int end = p.indexOf(']', pi + 2);
                if (end < 0) {
                    return false;
                }
                if (!inClass(s.charAt(si), p.substring(pi + 1, end))) {
                    return false;
                }
                si++;
                pi = end + 1;
            } else {
                char x = s.charAt(si);
                if (like ? fold(x) != fold(c) : x != c) {
                    return false;
                }
                si++;
                pi++;
            }
        }
        return si == s.length();
    }

    private static boolean inClass(char x, String cls) {
        boolean negated = cls.startsWith("^");
        String body = negated ? cls.substring(1) : cls;
        boolean found = false;
        for (int i = 0; i < body.length(); i++) {
            if (i + 2 < body.length() && body.charAt(i + 1) == '-') {
                found |= x >= body.charAt(i) && x <= body.charAt(i + 2);
                i += 2;
            } else {
                found |= x == body.charAt(i);
            }
        }
        return found != negated;
    }

    private static char fold(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }
}
