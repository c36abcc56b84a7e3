package io.derive.derby;

import io.derive.engine.spi.KeyOrder;
import io.derive.engine.spi.KeyRange;
import io.derive.engine.types.Collation;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.derive.derby.KeyValues.describe;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key codec against {@link KeyOrder} itself, over random keys of one to three components of
 * mixed types under every collation and direction ({@link KeyValues}), with byte strings compared
 * the ways a database might ({@link BitDataOrder}).
 */
class KeyCodecPropertiesTest {
    private static final int TRIALS = 400;

    @Test
    void encodingsCompareWithTheSignOfKeyOrderAndAreIdenticalExactlyForEqualKeys() {
        for (int trial = 0; trial < TRIALS; trial++) {
            Random r = random(trial);
            KeyValues.Shape shape = KeyValues.shape(r);
            List<Object[]> keys = KeyValues.keys(r, shape.width(), 12);
            KeyCodec codec = shape.codec();
            KeyOrder order = shape.order();
            List<byte[]> encoded = keys.stream().map(codec::encode).toList();
            for (int i = 0; i < keys.size(); i++) {
                for (int j = 0; j < keys.size(); j++) {
                    int expected = Integer.signum(order.compare(keys.get(i), keys.get(j)));
                    String what = "trial " + trial + " " + shape + ": " + describe(keys.get(i)) + " vs " + describe(keys.get(j));
                    for (BitDataOrder bitOrder : BitDataOrder.values()) {
                        assertThat(Integer.signum(bitOrder.compare(encoded.get(i), encoded.get(j)))).as(bitOrder + " " + what)
                                .isEqualTo(expected);
                    }
                    assertThat(Arrays.equals(encoded.get(i), encoded.get(j))).as(what).isEqualTo(expected == 0);
                }
            }
        }
    }

    @Test
    void aKeyWithAPrefixEncodesAsThePrefixThenMoreAndOtherKeysOrderAgainstThePrefixAsKeyOrderSays() {
        for (int trial = 0; trial < TRIALS; trial++) {
            Random r = random(trial);
            KeyValues.Shape shape = KeyValues.shape(r);
            List<Object[]> keys = KeyValues.keys(r, shape.width(), 8);
            KeyCodec codec = shape.codec();
            KeyOrder order = shape.order();
            for (Object[] source : keys) {
                for (int n = 0; n <= shape.width(); n++) {
                    Object[] prefix = Arrays.copyOf(source, n);
                    byte[] encodedPrefix = codec.encodePrefix(prefix);
                    for (Object[] key : keys) {
                        byte[] encoded = codec.encode(key);
                        String what = "trial " + trial + " " + shape + ": " + describe(key) + " vs prefix " + describe(prefix);
                        int c = Integer.signum(order.compareToPrefix(key, prefix));
                        if (c == 0) {
                            assertThat(Arrays.copyOf(encoded, encodedPrefix.length)).as(what).isEqualTo(encodedPrefix);
                        }
                        int expected = c == 0 && n < shape.width() ? 1 : c; // a key continuing a prefix follows it
                        for (BitDataOrder bitOrder : BitDataOrder.values()) {
                            assertThat(Integer.signum(bitOrder.compare(encoded, encodedPrefix))).as(bitOrder + " " + what)
                                    .isEqualTo(expected);
                        }
                    }
                }
            }
        }
    }

    @Test
    void everyComponentStartsWithATagFrom0x21To0xDEInBothDirections() {
        for (int trial = 0; trial < TRIALS; trial++) {
            Random r = random(trial);
            KeyValues.Shape shape = KeyValues.shape(r);
            KeyCodec codec = shape.codec();
            for (Object[] key : KeyValues.keys(r, shape.width(), 8)) {
                for (int n = 0; n < key.length; n++) {
                    int tagAt = codec.encodePrefix(Arrays.copyOf(key, n)).length;
                    int tag = codec.encodePrefix(Arrays.copyOf(key, n + 1))[tagAt] & 0xFF;
                    assertThat(tag).as("trial %d %s: component %d of %s", trial, shape, n, describe(key)).isBetween(0x21, 0xDE);
                }
            }
        }
    }

    @Test
    void boundsSelectExactlyTheKeysInsideTheRange() {
        for (int trial = 0; trial < TRIALS * 5; trial++) {
            Random r = random(trial);
            KeyValues.Shape shape = KeyValues.shape(r);
            List<Object[]> keys = KeyValues.keys(r, shape.width(), 12);
            KeyRange range = range(r, keys, shape.width());
            KeyCodec codec = shape.codec();
            KeyCodec.Bounds bounds = codec.bounds(range);
            for (Object[] key : keys) {
                boolean inside = range.position(key, shape.order()) == 0;
                byte[] encoded = codec.encode(key);
                for (BitDataOrder bitOrder : BitDataOrder.values()) {
                    assertThat(bitOrder.selects(bounds, encoded))
                            .as("trial %d %s %s: %s in %s", trial, shape, bitOrder, describe(key), describeRange(range))
                            .isEqualTo(inside);
                }
            }
        }
    }

    /** How the Derby host scans a prefix; safe under Derby's comparison, not under a literal padding rule. */
    @Test
    void fromAPrefixToItsSuccessorSelectsExactlyTheKeysWithThatPrefixAsDerbyCompares() {
        for (int trial = 0; trial < TRIALS; trial++) {
            Random r = random(trial);
            KeyValues.Shape shape = KeyValues.shape(r);
            List<Object[]> keys = KeyValues.keys(r, shape.width(), 12);
            KeyCodec codec = shape.codec();
            for (Object[] source : keys) {
                Object[] prefix = Arrays.copyOf(source, 1 + r.nextInt(shape.width()));
                byte[] from = codec.encodePrefix(prefix);
                KeyCodec.Bounds bounds = new KeyCodec.Bounds(from, true, KeyCodec.successor(from), false);
                for (Object[] key : keys) {
                    boolean expected = shape.order().compareToPrefix(key, prefix) == 0;
                    for (BitDataOrder bitOrder : List.of(BitDataOrder.UNSIGNED, BitDataOrder.DERBY)) {
                        assertThat(bitOrder.selects(bounds, codec.encode(key)))
                                .as("trial %d %s %s: %s with prefix %s", trial, shape, bitOrder, describe(key), describe(prefix))
                                .isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void infinitiesAndNaNOrderAsKeyOrderAmongRealsNullAndText() {
        Object[] specials = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, -Double.MAX_VALUE,
            Double.MAX_VALUE, 0.0, -0.0, null, "", "x"};
        for (int trial = 0; trial < TRIALS; trial++) {
            Random r = random(trial);
            KeyValues.Shape shape = new KeyValues.Shape(List.of(Collation.BINARY), List.of(r.nextBoolean()));
            List<Object> values = new ArrayList<>(Arrays.asList(specials));
            for (int i = 0; i < 5; i++) {
                values.add(KeyValues.finiteDouble(r));
            }
            for (Object a : values) {
                for (Object b : values) {
                    int expected = Integer.signum(shape.order().compare(new Object[] {a}, new Object[] {b}));
                    byte[] x = shape.codec().encode(new Object[] {a});
                    byte[] y = shape.codec().encode(new Object[] {b});
                    assertThat(Integer.signum(Arrays.compareUnsigned(x, y))).as("%s vs %s in %s", a, b, shape).isEqualTo(expected);
                    assertThat(Arrays.equals(x, y)).as("%s vs %s", a, b).isEqualTo(expected == 0);
                }
            }
        }
    }

    @Test
    void aLongEncodesAsTheDecimalOfTheSameValueAtAnyScale() {
        KeyCodec codec = new KeyCodec(List.of(Collation.BINARY), List.of(false));
        Random r = random(0);
        for (int trial = 0; trial < TRIALS * 20; trial++) {
            long value = trial % 3 == 0 ? r.nextLong() : trial % 3 == 1 ? r.nextInt(100_000) - 50_000
                    : KeyValues.LONGS[r.nextInt(KeyValues.LONGS.length)];
            BigDecimal decimal = BigDecimal.valueOf(value).setScale(r.nextInt(6));
            assertThat(codec.encode(new Object[] {value})).as("%d", value).isEqualTo(codec.encode(new Object[] {decimal}));
        }
    }

    @Test
    void successorFollowsEveryContinuationOfThePrefixAndNothingElseBeforeIt() {
        byte[] pool = {0x00, 0x01, 0x7F, (byte) 0xFE, (byte) 0xFF};
        Random r = random(0);
        for (int trial = 0; trial < TRIALS * 20; trial++) {
            byte[] prefix = bytes(r, pool);
            byte[] other = bytes(r, pool);
            byte[] successor = KeyCodec.successor(prefix);
            boolean allFF = true;
            for (byte b : prefix) {
                allFF &= b == (byte) 0xFF;
            }
            if (allFF) {
                assertThat(successor).as(Arrays.toString(prefix)).isNull();
                continue;
            }
            byte[] continued = Arrays.copyOf(prefix, prefix.length + other.length);
            System.arraycopy(other, 0, continued, prefix.length, other.length);
            assertThat(Arrays.compareUnsigned(continued, successor)).isNegative();
            boolean continues = other.length >= prefix.length && Arrays.equals(Arrays.copyOf(other, prefix.length), prefix);
            if (!continues && Arrays.compareUnsigned(other, prefix) > 0) {
                assertThat(Arrays.compareUnsigned(other, successor))
                        .as("%s after %s", Arrays.toString(other), Arrays.toString(prefix)).isNotNegative();
            }
        }
    }

    /** A range over a prefix of some key, with bounds that are often values of the keys themselves. */
    private static KeyRange range(Random r, List<Object[]> keys, int width) {
        Object[] prefix = Arrays.copyOf(keys.get(r.nextInt(keys.size())), r.nextInt(width + 1));
        return new KeyRange(prefix, bound(r, keys, width), r.nextBoolean(), bound(r, keys, width), r.nextBoolean());
    }

    private static Object bound(Random r, List<Object[]> keys, int width) {
        return r.nextInt(3) == 0 ? KeyValues.value(r) : keys.get(r.nextInt(keys.size()))[r.nextInt(width)];
    }

    private static byte[] bytes(Random r, byte[] pool) {
        byte[] b = new byte[r.nextInt(5)];
        for (int i = 0; i < b.length; i++) {
            b[i] = pool[r.nextInt(pool.length)];
        }
        return b;
    }

    private static Random random(int trial) {
        return new Random(KeyValues.SEED * 31 + trial);
    }

    private static String describeRange(KeyRange range) {
        return "range(prefix " + KeyValues.describe(range.prefix()) + ", " + (range.lowerInclusive() ? "[" : "(")
                + KeyValues.describe(range.lower()) + " .. " + KeyValues.describe(range.upper())
                + (range.upperInclusive() ? "]" : ")") + ")";
    }
}
