package io.derive.derby;

import java.util.Arrays;

/**
 * Ways a database may compare two bit data values; the key codec must give the same answers under
 * all of them (see {@link KeyCodec}).
 */
enum BitDataOrder {
    /** Unsigned bytewise, a proper prefix first. */
    UNSIGNED {
        @Override
        int compare(byte[] a, byte[] b) {
            return Arrays.compareUnsigned(a, b);
        }
    },
    /** Derby 10.16: as UNSIGNED, except that trailing 0x20 bytes past the shorter value are ignored. */
    DERBY {
        @Override
        int compare(byte[] a, byte[] b) {
            int common = Math.min(a.length, b.length);
            int c = Arrays.compareUnsigned(a, 0, common, b, 0, common);
            if (c != 0) {
                return c;
            }
            byte[] longer = a.length > b.length ? a : b;
            for (int i = common; i < longer.length; i++) {
                if (longer[i] != PAD) {
                    return longer == a ? 1 : -1;
                }
            }
            return 0;
        }
    },
    /** SQL's rule read literally: the shorter value padded with 0x20 bytes. */
    PADDED {
        @Override
        int compare(byte[] a, byte[] b) {
            int n = Math.max(a.length, b.length);
            for (int i = 0; i < n; i++) {
                int x = i < a.length ? a[i] & 0xFF : PAD;
                int y = i < b.length ? b[i] & 0xFF : PAD;
                if (x != y) {
                    return x - y;
                }
            }
            return 0;
        }
    };

    private static final byte PAD = 0x20;

    abstract int compare(byte[] a, byte[] b);

    /** Whether {@code k >= from} (or {@code >}) and {@code k < to} (or {@code <=}) holds, null ends open. */
    boolean selects(KeyCodec.Bounds bounds, byte[] k) {
        if (bounds.from() != null) {
            int c = compare(k, bounds.from());
            if (c < 0 || (c == 0 && !bounds.fromInclusive())) {
                return false;
            }
        }
        if (bounds.to() != null) {
            int c = compare(k, bounds.to());
            return c < 0 || (c == 0 && bounds.toInclusive());
        }
        return true;
    }
}
