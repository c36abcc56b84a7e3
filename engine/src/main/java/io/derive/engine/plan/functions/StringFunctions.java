package io.derive.engine.plan.functions;

import io.derive.engine.api.DeriveException;
import io.derive.engine.types.SqlType;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static io.derive.engine.plan.functions.Arguments.integer;
import static io.derive.engine.plan.functions.Arguments.text;
import static io.derive.engine.plan.functions.Definitions.nullAware;
import static io.derive.engine.plan.functions.Definitions.strict;

/**
 * Text and blob functions with SQLite's semantics: positions count characters (code points) of
 * text and bytes of blobs, and case folding touches ASCII letters only, as in SQLite without ICU.
 */
public final class StringFunctions {
    private static final int REPLACEMENT_CHARACTER = 0xFFFD;

    private StringFunctions() {
    }

    public static List<ScalarFunction> all() {
        return List.of(
                strict("length", 1, 1, SqlType.INTEGER, a -> length(a[0])),
                strict("lower", 1, 1, SqlType.TEXT, a -> foldAscii(text(a[0]), false)),
                strict("upper", 1, 1, SqlType.TEXT, a -> foldAscii(text(a[0]), true)),
                strict("substr", 2, 3, SqlType.TEXT, StringFunctions::substr).typedBy(StringFunctions::substrType),
                strict("substring", 2, 3, SqlType.TEXT, StringFunctions::substr).typedBy(StringFunctions::substrType),
                strict("trim", 1, 2, SqlType.TEXT, a -> trim(a, true, true)),
                strict("ltrim", 1, 2, SqlType.TEXT, a -> trim(a, true, false)),
                strict("rtrim", 1, 2, SqlType.TEXT, a -> trim(a, false, true)),
                strict("replace", 3, 3, SqlType.TEXT, StringFunctions::replace),
                strict("instr", 2, 2, SqlType.INTEGER, StringFunctions::instr),
                nullAware("hex", 1, 1, SqlType.TEXT, a -> HexFormat.of().withUpperCase().formatHex(Arguments.bytes(a[0]))),
                nullAware("char", 0, Integer.MAX_VALUE, SqlType.TEXT, StringFunctions::character),
                strict("unicode", 1, 1, SqlType.INTEGER, a -> {
                    String s = text(a[0]);
                    return s.isEmpty() ? null : (Object) (long) s.codePointAt(0);
                }),
                // like(p, x) and glob(p, x) are bound as the operators x like p / x glob p.
                strict("like", 2, 3, SqlType.INTEGER, StringFunctions::boundAsOperator),
                strict("glob", 2, 2, SqlType.INTEGER, StringFunctions::boundAsOperator));
    }

    /** A part of a blob is a blob; of anything else, text. */
    private static SqlType substrType(List<? extends Argument> args) {
        SqlType t = args.get(0).type();
        return t == SqlType.BLOB || t == SqlType.ANY ? t : SqlType.TEXT;
    }

    private static Object boundAsOperator(Object[] a) {
        throw new DeriveException(DeriveException.INTERNAL, "like() and glob() are evaluated as operators");
    }

    private static Object length(Object v) {
        if (v instanceof byte[] b) {
            return (long) b.length;
        }
        String s = text(v);
        return (long) s.codePointCount(0, s.length());
    }

    private static String foldAscii(String s, boolean upper) {
        char[] chars = s.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            char c = chars[i];
            if (upper && c >= 'a' && c <= 'z') {
                chars[i] = (char) (c - 32);
            } else if (!upper && c >= 'A' && c <= 'Z') {
                chars[i] = (char) (c + 32);
            }
        }
        return new String(chars);
    }

    /** SQLite's substr: 1-based, a negative start counts from the end, a negative length takes characters before the start. */
    private static Object substr(Object[] a) {
        boolean blob = a[0] instanceof byte[];
        int[] units = blob ? toInts((byte[]) a[0]) : text(a[0]).codePoints().toArray();
        long len = units.length;
        long p1 = integer(a[1]);
        long p2 = a.length > 2 ? integer(a[2]) : Arguments.MAX_LENGTH;
        boolean negativeLength = p2 < 0;
        if (negativeLength) {
            p2 = p2 == Long.MIN_VALUE ? Long.MAX_VALUE : -p2;
        }
        if (p1 < 0) {
            p1 += len;
            if (p1 < 0) {
                p2 = Math.max(p2 + p1, 0); // p2 >= 0 > p1: no overflow
                p1 = 0;
            }
        } else if (p1 > 0) {
            p1--;
        } else if (p2 > 0) {
            p2--;
        }
        if (negativeLength) {
            p1 = p1 - p2; // both non-negative: no overflow
            if (p1 < 0) {
                p2 += p1;
                p1 = 0;
            }
        }
        long from = Math.min(p1, len);
        long to = Math.max(from, p2 >= len - from ? len : from + p2);
        int[] slice = Arrays.copyOfRange(units, (int) from, (int) to);
        if (blob) {
            byte[] out = new byte[slice.length];
            for (int i = 0; i < slice.length; i++) {
                out[i] = (byte) slice[i];
            }
            return out;
        }
        return new String(slice, 0, slice.length);
    }

    private static int[] toInts(byte[] b) {
        int[] out = new int[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = b[i];
        }
        return out;
    }

    /** Removes from one or both ends the characters in the second argument (a space by default). */
    private static Object trim(Object[] a, boolean left, boolean right) {
        int[] s = text(a[0]).codePoints().toArray();
        int[] set = a.length > 1 ? text(a[1]).codePoints().toArray() : new int[] {' '};
        int begin = 0;
        int end = s.length;
        while (left && begin < end && contains(set, s[begin])) {
            begin++;
        }
        while (right && end > begin && contains(set, s[end - 1])) {
            end--;
        }
        return new String(s, begin, end - begin);
    }

    private static boolean contains(int[] set, int c) {
        for (int x : set) {
            if (x == c) {
                return true;
            }
        }
        return false;
    }

    private static Object replace(Object[] a) {
        String s = text(a[0]);
        String from = text(a[1]);
        if (from.isEmpty()) {
            return s;
        }
        String to = text(a[2]);
        int occurrences = 0;
        for (int i = s.indexOf(from); i >= 0; i = s.indexOf(from, i + from.length())) {
            occurrences++;
        }
        Arguments.checkedLength(s.length() + (long) occurrences * (to.length() - from.length()));
        return s.replace(from, to);
    }

    private static Object instr(Object[] a) {
        if (a[0] instanceof byte[] hay && a[1] instanceof byte[] needle) {
            for (int i = 0; i + needle.length <= hay.length; i++) {
                if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
                    return (long) i + 1;
                }
            }
            return 0L;
        }
        String hay = text(a[0]);
        int at = hay.indexOf(text(a[1]));
        return at < 0 ? 0L : (long) hay.codePointCount(0, at) + 1;
    }

    /** char(c1, c2, …): the text of these code points; a NULL counts as 0, an invalid one as U+FFFD. */
    private static Object character(Object[] a) {
        StringBuilder out = new StringBuilder();
        for (Object v : a) {
            long c = integer(v);
            boolean valid = c >= 0 && c <= Character.MAX_CODE_POINT && !(c >= 0xD800 && c <= 0xDFFF);
            out.appendCodePoint(valid ? (int) c : REPLACEMENT_CHARACTER);
        }
        return out.toString();
    }
}
