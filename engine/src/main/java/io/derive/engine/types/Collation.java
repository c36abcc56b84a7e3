package io.derive.engine.types;

import io.derive.engine.api.DeriveException;

import java.util.Locale;

/** How text values compare: SQLite's three built-in collations. */
public enum Collation {
    /** Compares UTF-16 code units (equivalently, code points for the BMP): SQLite's memcmp order. */
    BINARY {
        @Override
        public int compare(String a, String b) {
            return a.compareTo(b);
        }
    },
    /** As BINARY after folding the 26 ASCII upper-case letters to lower case, and nothing else. */
    NOCASE {
        @Override
        public int compare(String a, String b) {
            int n = Math.min(a.length(), b.length());
            for (int i = 0; i < n; i++) {
                char x = fold(a.charAt(i));
                char y = fold(b.charAt(i));
                if (x != y) {
                    return x - y;
                }
            }
            return a.length() - b.length();
        }

        private char fold(char c) {
            return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
        }
    },
    /** As BINARY after removing trailing spaces. */
    RTRIM {
        @Override
        public int compare(String a, String b) {
            return strip(a).compareTo(strip(b));
        }

        private String strip(String s) {
            int end = s.length();
            while (end > 0 && s.charAt(end - 1) == ' ') {
                end--;
            }
            return s.substring(0, end);
        }
    };

    public abstract int compare(String a, String b);

    /** The collation of a {@code collate name} clause; unknown names are an error. */
    public static Collation named(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such collation sequence: " + name);
        }
    }

    public String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
