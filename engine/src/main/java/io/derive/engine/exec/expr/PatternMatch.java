package io.derive.engine.exec.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * SQLite's {@code like} and {@code glob} matching, over code points as SQLite's is.
 *
 * <p>A pattern is read into tokens that each match exactly one character, apart from the run
 * wildcard; with that, a match that backtracks only to the last run wildcard seen is exact, so
 * matching takes at most about (text length + 1) × (pattern length + 1) steps, where trying every
 * way of splitting the text among several wildcards would take exponentially many
 * ({@code '%a%a%a…%b'} against a long text of {@code a}s).
 */
final class PatternMatch {
    /** What one match found, and how many steps it took: the steps are what a test bounds. */
    record Outcome(boolean matched, long steps) {
    }

    /** One pattern element. */
    private sealed interface Token {
    }

    /** {@code %} or {@code *}: any run of characters; consecutive ones are one token. */
    private record AnyRun() implements Token {
    }

    /** {@code _} or {@code ?}: any one character. */
    private record AnyOne() implements Token {
    }

    /** One character, which for {@code like} matches ASCII letters of either case. */
    private record Literal(int c) implements Token {
    }

    /** A {@code glob} class {@code [...]}: the characters and ranges listed, or those not listed. */
    private record CharClass(int[] singles, int[] rangeBounds, boolean negated) implements Token {
        boolean contains(int c) {
            boolean seen = false;
            for (int s : singles) {
                seen |= s == c;
            }
            for (int i = 0; i < rangeBounds.length; i += 2) {
                seen |= c >= rangeBounds[i] && c <= rangeBounds[i + 1];
            }
            return seen != negated;
        }
    }

    private PatternMatch() {
    }

    /** {@code %} any run, {@code _} one character; ASCII letters match case-insensitively. */
    static boolean like(String s, String pattern) {
        return like(s, pattern, -1);
    }

    /** As {@link #like(String, String)}, where {@code escape} (or -1 for none) makes the next pattern character literal. */
    static boolean like(String s, String pattern, int escape) {
        return likeOutcome(s, pattern, escape).matched();
    }

    /** {@code *} any run, {@code ?} one character, {@code [...]} a class; case-sensitive. */
    static boolean glob(String s, String pattern) {
        return globOutcome(s, pattern).matched();
    }

    static Outcome likeOutcome(String s, String pattern, int escape) {
        List<Token> tokens = likeTokens(pattern, escape);
        return tokens == null ? new Outcome(false, 0) : match(s.codePoints().toArray(), tokens, true);
    }

    static Outcome globOutcome(String s, String pattern) {
        List<Token> tokens = globTokens(pattern);
        return tokens == null ? new Outcome(false, 0) : match(s.codePoints().toArray(), tokens, false);
    }

    /**
     * The tokens of a {@code like} pattern, or null when it can match nothing: an escape as its
     * last character escapes nothing, and SQLite then finds no match.
     */
    private static List<Token> likeTokens(String pattern, int escape) {
        List<Token> tokens = new ArrayList<>();
        int[] p = pattern.codePoints().toArray();
        for (int i = 0; i < p.length; i++) {
            // The escape comes first: an escape character that is also a wildcard is the escape (SQLite).
            if (p[i] == escape) {
                if (++i == p.length) {
                    return null;
                }
                tokens.add(new Literal(p[i]));
            } else if (p[i] == '%') {
                addAnyRun(tokens);
            } else if (p[i] == '_') {
                tokens.add(new AnyOne());
            } else {
                tokens.add(new Literal(p[i]));
            }
        }
        return tokens;
    }

    /**
     * The tokens of a {@code glob} pattern, or null when it can match nothing (a class left open).
     * A class reads as SQLite reads it: {@code ^} first negates, a {@code ]} first (after any
     * {@code ^}) is a member, and {@code -} between two members is a range.
     */
    private static List<Token> globTokens(String pattern) {
        List<Token> tokens = new ArrayList<>();
        int[] p = pattern.codePoints().toArray();
        for (int i = 0; i < p.length; i++) {
            if (p[i] == '*') {
                addAnyRun(tokens);
            } else if (p[i] == '?') {
                tokens.add(new AnyOne());
            } else if (p[i] == '[') {
                List<Integer> singles = new ArrayList<>();
                List<Integer> ranges = new ArrayList<>();
                int j = i + 1;
                boolean negated = j < p.length && p[j] == '^';
                if (negated) {
                    j++;
                }
                if (j < p.length && p[j] == ']') {
                    singles.add((int) ']');
                    j++;
                }
                int prior = 0;
                while (j < p.length && p[j] != ']') {
                    if (p[j] == '-' && prior > 0 && j + 1 < p.length && p[j + 1] != ']') {
                        ranges.add(prior);
                        ranges.add(p[j + 1]);
                        prior = 0;
                        j += 2;
                    } else {
                        singles.add(p[j]);
                        prior = p[j];
                        j++;
                    }
                }
                if (j == p.length) {
                    return null;
                }
                tokens.add(new CharClass(singles.stream().mapToInt(Integer::intValue).toArray(),
                        ranges.stream().mapToInt(Integer::intValue).toArray(), negated));
                i = j;
            } else {
                tokens.add(new Literal(p[i]));
            }
        }
        return tokens;
    }

    private static void addAnyRun(List<Token> tokens) {
        if (tokens.isEmpty() || !(tokens.get(tokens.size() - 1) instanceof AnyRun)) {
            tokens.add(new AnyRun());
        }
    }

    /**
     * Matches left to right; on a mismatch after a run wildcard, that wildcard takes one more
     * character and matching resumes after it. Going back only to the latest wildcard suffices:
     * whatever an earlier one would take instead, the latest can take as well.
     */
    private static Outcome match(int[] s, List<Token> p, boolean like) {
        long steps = 0;
        int si = 0;
        int pi = 0;
        int runAt = -1;
        int runFrom = 0;
        while (si < s.length) {
            steps++;
            if (pi < p.size() && p.get(pi) instanceof AnyRun) {
                runAt = pi++;
                runFrom = si;
            } else if (pi < p.size() && matchesOne(p.get(pi), s[si], like)) {
                pi++;
                si++;
            } else if (runAt >= 0) {
                pi = runAt + 1;
                si = ++runFrom;
            } else {
                return new Outcome(false, steps);
            }
        }
        while (pi < p.size() && p.get(pi) instanceof AnyRun) {
            pi++;
        }
        return new Outcome(pi == p.size(), steps);
    }

    private static boolean matchesOne(Token t, int c, boolean like) {
        if (t instanceof Literal l) {
            return like ? fold(l.c()) == fold(c) : l.c() == c;
        }
        if (t instanceof CharClass k) {
            return k.contains(c);
        }
        return t instanceof AnyOne;
    }

    private static int fold(int c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }
}
