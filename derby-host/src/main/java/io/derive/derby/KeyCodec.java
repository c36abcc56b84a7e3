package io.derive.derby;

import io.derive.engine.api.DeriveException;
import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;
import io.derive.engine.types.TemporalValue;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.Temporal;
import java.util.Arrays;
import java.util.List;

/**
 * An order-preserving byte encoding of a table's physical key, so that a Derby
 * {@code VARCHAR(32672) FOR BIT DATA} primary key orders, collapses and ranges rows exactly as
 * {@link KeyOrder}: {@code Arrays.compareUnsigned(encode(a), encode(b))} has the sign of
 * {@code order.compare(a, b)}, and the encodings are byte-identical exactly when that is 0.
 *
 * <p>Why the shape: Derby compares bit data under SQL's padding rule, so a value and the same value
 * followed by 0x20 bytes are one primary key, and a literal reading of the rule (pad the shorter
 * operand with 0x20) would also sort {@code X 05} before {@code X}; Derby 10.16 sorts the proper
 * prefix first. Either way byte order is only safe between strings neither of which is the other
 * followed by low bytes. So every component is self-delimiting, and no full key is a proper prefix
 * of another; and every component starts with a tag byte in [0x21, 0xDE], a range that inverting
 * a descending component keeps, so a key continuing an encoded prefix continues it above 0x20 and
 * sorts after it under either reading. For the same reason {@link #bounds} ends a range after
 * every key continuing a prefix with the prefix followed by 0xFF (above any tag), not with its
 * {@link #successor}, before which the literal reading would sort keys continuing the successor
 * with low bytes.
 *
 * <p>Components, ascending: NULL is its tag; a number has a tag per class (−∞, negative, zero,
 * positive, +∞, NaN) and, finite and non-zero, a sortable exponent and its significant decimal
 * digits, inverted when negative; text is folded by its collation and written as UTF-16 code units
 * of 1–3 bytes each, which sort as {@link String#compareTo}; dates, times and timestamps are their
 * ISO text, as {@link io.derive.engine.types.ValueOrder} compares them with text; text and blobs
 * escape 0x00 and 0x01 and end with 0x00. A descending component inverts every byte. Immutable and
 * thread-safe.
 */
public final class KeyCodec {
    /** The encoded ends of a range and their sides; a {@code null} end leaves that side open. */
    public record Bounds(byte[] from, boolean fromInclusive, byte[] to, boolean toInclusive) {
    }

    private static final int NULL = 0x30;
    private static final int NEGATIVE_INFINITY = 0x40;
    private static final int NEGATIVE = 0x41;
    private static final int ZERO = 0x42;
    private static final int POSITIVE = 0x43;
    private static final int POSITIVE_INFINITY = 0x44;
    private static final int NAN = 0x45;
    private static final int TEXT = 0x50;
    private static final int BLOB = 0x60;
    /** Above every tag, so above whatever continues an encoded prefix. */
    private static final byte PAST_CONTINUATIONS = (byte) 0xFF;
    private static final int END = 0x00;
    private static final int ESCAPE = 0x01;
    private static final int DIGITS_END = 0x01;

    private final Collation[] collations;
    private final boolean[] descending;

    /** One collation and one direction per key component, in key order, for at least one component. */
    public KeyCodec(List<Collation> collations, List<Boolean> descending) {
        if (collations.size() != descending.size() || collations.isEmpty()) {
            throw new IllegalArgumentException("a key codec needs one direction per key component, and at least one");
        }
        this.collations = collations.toArray(new Collation[0]);
        this.descending = new boolean[descending.size()];
        for (int i = 0; i < this.descending.length; i++) {
            this.descending[i] = descending.get(i);
        }
    }

    /** The codec of a table's physical key, agreeing with {@link TableShape#keyOrder()}. */
    public static KeyCodec of(TableShape shape) {
        return new KeyCodec(shape.key().stream().map(p -> shape.columns().get(p.column()).collation()).toList(),
                shape.key().stream().map(TableShape.KeyPart::descending).toList());
    }

    /**
     * The encoding of a full key; no other key's encoding starts with it.
     *
     * @throws IllegalArgumentException if the key has not one value per component
     * @throws DeriveException          code INTERNAL for a Java class the engine never stores; code
     *                                  DATA for a date or timestamp of a year outside 0000–9999 (its
     *                                  ISO text would misorder) or a number of a decimal exponent
     *                                  beyond an int
     */
    public byte[] encode(Object[] key) {
        if (key.length != collations.length) {
            throw new IllegalArgumentException("a key of " + collations.length + " components, not " + key.length);
        }
        return encodePrefix(key);
    }

    /**
     * The encoding of the first {@code prefix.length} components: a full key that starts with these
     * values (under {@link KeyOrder#compareToPrefix}) encodes as these bytes followed by more, the
     * first of them a tag above 0x20. An empty prefix encodes as an empty array.
     *
     * @throws IllegalArgumentException if the prefix is longer than the key
     * @throws DeriveException          as {@link #encode}
     */
    public byte[] encodePrefix(Object[] prefix) {
        if (prefix.length > collations.length) {
            throw new IllegalArgumentException("a prefix of " + prefix.length + " components for a key of " + collations.length);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < prefix.length; i++) {
            byte[] component = component(prefix[i], collations[i]);
            out.writeBytes(descending[i] ? inverted(component) : component);
        }
        return out.toByteArray();
    }

    /**
     * The smallest byte string that is greater, unsigned bytewise with a proper prefix first, than
     * every byte string starting with {@code prefix}; {@code null} when there is none (the prefix is
     * empty or all 0xFF). Derby sorts a proper prefix first too, so for an encoded prefix {@code p}
     * Derby's {@code k >= p and k < successor(p)} selects exactly the keys that continue it;
     * {@link #bounds} does not rely on that (see the class comment).
     */
    public static byte[] successor(byte[] prefix) {
        int last = prefix.length - 1;
        while (last >= 0 && prefix[last] == (byte) 0xFF) {
            last--;
        }
        if (last < 0) {
            return null;
        }
        byte[] next = Arrays.copyOf(prefix, last + 1);
        next[last]++;
        return next;
    }

    /**
     * The encoded keys beginning with {@code prefix}: all keys for an empty one. An encoded
     * prefix begins with a tag byte below 0xFF, so it always has a successor.
     *
     * @throws DeriveException as {@link #encode}
     */
    public Bounds bounds(Object[] prefix) {
        if (prefix.length == 0) {
            return new Bounds(null, false, null, false);
        }
        byte[] from = encodePrefix(prefix);
        return new Bounds(from, true, successor(from), false);
    }

    /**
     * The encoded ends of a key range: the keys whose encoding {@code k} has {@code k >= from} (or
     * {@code k > from} when not {@code fromInclusive}) and {@code k < to} (or {@code k <= to} when
     * {@code toInclusive}), null ends open, are exactly those with {@code range.position(key,
     * order) == 0}, whether bytes compare unsigned or as Derby compares bit data. The range's bounds
     * are in value order, so on a descending component the lower bound gives the {@code to} end.
     * This codec's ends are always {@code from} inclusive and {@code to} exclusive.
     *
     * @throws IllegalArgumentException if the range's prefix is longer than the key
     * @throws DeriveException          as {@link #encode}, for the prefix or a bound
     */
    public Bounds bounds(KeyRange range) {
        Object[] prefix = range.prefix();
        byte[] start = encodePrefix(prefix);
        int i = prefix.length;
        if (i == collations.length) {
            return new Bounds(start, true, pastContinuations(start), false);
        }
        boolean down = descending[i];
        Object fromValue = down ? range.upper() : range.lower();
        boolean fromInclusive = down ? range.upperInclusive() : range.lowerInclusive();
        Object toValue = down ? range.lower() : range.upper();
        boolean toInclusive = down ? range.lowerInclusive() : range.upperInclusive();
        byte[] from = fromValue == null ? (i == 0 ? null : start) : withBound(prefix, fromValue, !fromInclusive);
        byte[] to = toValue == null ? (i == 0 ? null : pastContinuations(start)) : withBound(prefix, toValue, toInclusive);
        return new Bounds(from, true, to, false);
    }

    /** Where the keys continuing the prefix with this component value start, or where they are all past. */
    private byte[] withBound(Object[] prefix, Object value, boolean pastThem) {
        Object[] extended = Arrays.copyOf(prefix, prefix.length + 1);
        extended[prefix.length] = value;
        byte[] encoded = encodePrefix(extended);
        return pastThem ? pastContinuations(encoded) : encoded;
    }

    private static byte[] pastContinuations(byte[] encodedPrefix) {
        byte[] fence = Arrays.copyOf(encodedPrefix, encodedPrefix.length + 1);
        fence[encodedPrefix.length] = PAST_CONTINUATIONS;
        return fence;
    }

    private static byte[] component(Object v, Collation collation) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (v == null) {
            out.write(NULL);
        } else if (v instanceof Long l) {
            integer(out, l);
        } else if (v instanceof Boolean b) {
            integer(out, b ? 1 : 0);
        } else if (v instanceof Double d) {
            real(out, d);
        } else if (v instanceof BigDecimal d) {
            decimal(out, d);
        } else if (v instanceof String s) {
            text(out, s, collation);
        } else if (v instanceof Temporal t && TemporalValue.isTemporal(t)) {
            text(out, TemporalValue.render(checkYear(t)), collation);
        } else if (v instanceof byte[] b) {
            out.write(BLOB);
            for (byte x : b) {
                escaped(out, x & 0xFF);
            }
            out.write(END);
        } else {
            throw new DeriveException(DeriveException.INTERNAL, "cannot encode a key value of Java class " + v.getClass().getName());
        }
        return out.toByteArray();
    }

    /** The same bytes as {@link #decimal} of the same value, without building a BigDecimal. */
    private static void integer(ByteArrayOutputStream out, long v) {
        if (v == 0) {
            out.write(ZERO);
            return;
        }
        String digits = Long.toString(v);
        int first = v < 0 ? 1 : 0;
        int end = digits.length();
        while (digits.charAt(end - 1) == '0') {
            end--;
        }
        finite(out, v < 0, digits.length() - first, digits.substring(first, end));
    }

    private static void real(ByteArrayOutputStream out, double d) {
        if (Double.isNaN(d)) {
            out.write(NAN);
        } else if (Double.isInfinite(d)) {
            out.write(d > 0 ? POSITIVE_INFINITY : NEGATIVE_INFINITY);
        } else if (d == 0) {
            out.write(ZERO); // -0.0 too: it equals 0.0
        } else {
            decimal(out, new BigDecimal(d)); // exactly: numbers compare exactly across classes
        }
    }

    private static void decimal(ByteArrayOutputStream out, BigDecimal d) {
        if (d.signum() == 0) {
            out.write(ZERO);
            return;
        }
        BigDecimal normal = d.stripTrailingZeros();
        String digits = normal.unscaledValue().abs().toString();
        long exponent = (long) digits.length() - normal.scale();
        if (exponent > Integer.MAX_VALUE) {
            throw new DeriveException(DeriveException.DATA, "number too large for a key: " + d);
        }
        finite(out, d.signum() < 0, (int) exponent, digits);
    }

    /**
     * The value ±0.{@code digits} × 10^{@code exponent}, first and last digit non-zero: a larger
     * exponent is a larger magnitude, then the digits decide left to right, a shorter run first.
     */
    private static void finite(ByteArrayOutputStream out, boolean negative, int exponent, String digits) {
        out.write(negative ? NEGATIVE : POSITIVE);
        byte[] magnitude = new byte[4 + digits.length() + 1];
        int sortable = exponent ^ Integer.MIN_VALUE; // big-endian with the sign bit flipped sorts as signed
        for (int i = 0; i < 4; i++) {
            magnitude[i] = (byte) (sortable >>> (24 - 8 * i));
        }
        for (int i = 0; i < digits.length(); i++) {
            magnitude[4 + i] = (byte) (digits.charAt(i) - '0' + 2);
        }
        magnitude[magnitude.length - 1] = DIGITS_END;
        out.writeBytes(negative ? inverted(magnitude) : magnitude); // a larger magnitude is a smaller negative
    }

    private static void text(ByteArrayOutputStream out, String s, Collation collation) {
        out.write(TEXT);
        int end = s.length();
        while (collation == Collation.RTRIM && end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            if (collation == Collation.NOCASE && c >= 'A' && c <= 'Z') {
                c = (char) (c + ('a' - 'A'));
            }
            // UTF-8's byte layout applied to each UTF-16 code unit, surrogates included, keeps
            // code unit order (String.compareTo), which 4-byte UTF-8 sequences would not.
            if (c < 0x80) {
                escaped(out, c);
            } else if (c < 0x800) {
                out.write(0xC0 | c >>> 6);
                out.write(0x80 | c & 0x3F);
            } else {
                out.write(0xE0 | c >>> 12);
                out.write(0x80 | c >>> 6 & 0x3F);
                out.write(0x80 | c & 0x3F);
            }
        }
        out.write(END);
    }

    /** 0x00 and 0x01 become 0x01 0x01 and 0x01 0x02, so that 0x00 alone ends a value and sorts first. */
    private static void escaped(ByteArrayOutputStream out, int b) {
        if (b <= ESCAPE) {
            out.write(ESCAPE);
            out.write(b + 1);
        } else {
            out.write(b);
        }
    }

    /** ISO text sorts chronologically only for four-digit years ({@link TemporalValue}). */
    private static Temporal checkYear(Temporal t) {
        LocalDate date = t instanceof LocalDate d ? d : t instanceof LocalDateTime ts ? ts.toLocalDate() : null;
        if (date != null && (date.getYear() < 0 || date.getYear() > 9999)) {
            throw new DeriveException(DeriveException.DATA, "a key value must have a year from 0000 to 9999: " + t);
        }
        return t;
    }

    private static byte[] inverted(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) ~bytes[i];
        }
        return bytes;
    }
}
