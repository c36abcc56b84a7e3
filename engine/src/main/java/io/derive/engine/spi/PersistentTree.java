package io.derive.engine.spi;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.BiConsumer;
import java.util.function.ToIntFunction;

/**
 * An immutable sorted map: an AVL tree whose updates copy only the path to the changed node, so
 * a new version shares all other nodes with the old one. Versions are values: holding one is a
 * consistent snapshot, which is how hosts publish committed state to readers, keep a cursor's
 * view while its transaction writes on, and mark pending state at a savepoint in O(1).
 * Not synchronized, and needing none: a version never changes.
 *
 * @param <K> key type, ordered by the tree's comparator
 * @param <V> value type
 */
public final class PersistentTree<K, V> {

    /**
     * A node. When {@code led}, {@code lead} is the key's first component, an integer: a search
     * for an integer-led key compares those first, in the node itself, and reaches for the key's
     * components only where the leads are equal (see {@link #compare}).
     */
    private record Node<K, V>(K key, V value, Node<K, V> left, Node<K, V> right, int height, int size, long lead,
                              boolean led) {
        /** This node's entry over other children. */
        Node<K, V> over(Node<K, V> newLeft, Node<K, V> newRight) {
            return over(newLeft, newRight, 1 + Math.max(PersistentTree.height(newLeft), PersistentTree.height(newRight)),
                    1 + PersistentTree.size(newLeft) + PersistentTree.size(newRight));
        }

        Node<K, V> over(Node<K, V> newLeft, Node<K, V> newRight, int newHeight, int newSize) {
            return new Node<>(key, value, newLeft, newRight, newHeight, newSize, lead, led);
        }
    }

    /** One key and its value. */
    public record Entry<K, V>(K key, V value) {
    }

    private final Comparator<? super K> order;
    /**
     * For a {@link KeyOrder}, whose keys are value arrays: 1 (-1 when its first component sorts
     * descending) where two integer first components order two keys as {@link Long#compare}
     * does; 0 for any other order, whose keys are compared by it alone.
     */
    private final int leadSign;
    /** Whether the first component is the whole key, so that equal leads are equal keys. */
    private final boolean leadIsKey;
    private final Node<K, V> root;

    private PersistentTree(Comparator<? super K> order, int leadSign, boolean leadIsKey, Node<K, V> root) {
        this.order = order;
        this.leadSign = leadSign;
        this.leadIsKey = leadIsKey;
        this.root = root;
    }

    private PersistentTree<K, V> withRoot(Node<K, V> next) {
        return new PersistentTree<>(order, leadSign, leadIsKey, next);
    }

    /** The empty tree ordered by {@code order}. */
    public static <K, V> PersistentTree<K, V> empty(Comparator<? super K> order) {
        if (order instanceof KeyOrder keys && keys.width() > 0) {
            return new PersistentTree<>(order, keys.descending(0) ? -1 : 1, keys.width() == 1, null);
        }
        return new PersistentTree<>(order, 0, false, null);
    }

    public int size() {
        return size(root);
    }

    public boolean isEmpty() {
        return root == null;
    }

    /** Whether {@code key} has an integer lead; only a {@link KeyOrder}'s keys may. */
    private boolean led(K key) {
        return leadSign != 0 && key instanceof Object[] values && values.length > 0 && values[0] instanceof Long;
    }

    private static long lead(Object key) {
        return (Long) ((Object[]) key)[0];
    }

    private int compare(K key, long lead, boolean led, Node<K, V> n) {
        if (led && n.led()) {
            if (lead != n.lead()) {
                return lead < n.lead() ? -leadSign : leadSign;
            }
            if (leadIsKey) {
                return 0;
            }
        }
        return order.compare(key, n.key());
    }

    /** The value at {@code key}, or {@code null}. */
    public V get(K key) {
        boolean led = led(key);
        long lead = led ? lead(key) : 0;
        Node<K, V> n = root;
        while (n != null) {
            int c = compare(key, lead, led, n);
            if (c == 0) {
                return n.value();
            }
            n = c < 0 ? n.left() : n.right();
        }
        return null;
    }

    /** This tree with {@code value} at {@code key}; this one is unchanged. */
    public PersistentTree<K, V> put(K key, V value) {
        boolean led = led(key);
        return withRoot(put(root, key, value, led ? lead(key) : 0, led));
    }

    /** This tree without {@code key} (itself when it has no such key); this one is unchanged. */
    public PersistentTree<K, V> remove(K key) {
        boolean led = led(key);
        Node<K, V> next = remove(root, key, led ? lead(key) : 0, led);
        return next == root ? this : withRoot(next);
    }

    /** Calls {@code action} with every entry, in key order. */
    public void forEach(BiConsumer<? super K, ? super V> action) {
        forEach(root, action);
    }

    private static <K, V> void forEach(Node<K, V> n, BiConsumer<? super K, ? super V> action) {
        while (n != null) {
            forEach(n.left(), action);
            action.accept(n.key(), n.value());
            n = n.right();
        }
    }

    /** The number of nodes on the longest path from the root: at most about 1.44 log2 of the size. */
    int height() {
        return height(root);
    }

    /**
     * Entries in key order over a contiguous range. {@code probe} places a key against the range:
     * negative before it, 0 inside, positive after it. Ascending, iteration starts at the first
     * key inside and stops at the first key after; descending, the reverse.
     */
    public Iterator<Entry<K, V>> range(ToIntFunction<K> probe, boolean descending) {
        return new RangeIterator<>(root, probe, descending);
    }

    // Where a child's height did not change, neither did the node's nor its balance: it is copied
    // with the new child without looking at the other one, which keeps most of a path's copies
    // from touching the siblings along it.
    private Node<K, V> put(Node<K, V> n, K key, V value, long lead, boolean led) {
        if (n == null) {
            return new Node<>(key, value, null, null, 1, 1, lead, led);
        }
        int c = compare(key, lead, led, n);
        if (c == 0) {
            return new Node<>(key, value, n.left(), n.right(), n.height(), n.size(), lead, led);
        }
        if (c < 0) {
            Node<K, V> left = put(n.left(), key, value, lead, led);
            return height(left) == height(n.left())
                    ? n.over(left, n.right(), n.height(), n.size() + left.size() - size(n.left()))
                    : balance(n, left, n.right());
        }
        Node<K, V> right = put(n.right(), key, value, lead, led);
        return height(right) == height(n.right())
                ? n.over(n.left(), right, n.height(), n.size() + right.size() - size(n.right()))
                : balance(n, n.left(), right);
    }

    private Node<K, V> remove(Node<K, V> n, K key, long lead, boolean led) {
        if (n == null) {
            return null;
        }
        int c = compare(key, lead, led, n);
        if (c < 0) {
            Node<K, V> left = remove(n.left(), key, lead, led);
            return left == n.left() ? n : withOneFewer(n, n, left, n.right());
        }
        if (c > 0) {
            Node<K, V> right = remove(n.right(), key, lead, led);
            return right == n.right() ? n : withOneFewer(n, n, n.left(), right);
        }
        if (n.left() == null) {
            return n.right();
        }
        if (n.right() == null) {
            return n.left();
        }
        Node<K, V> min = n.right();
        while (min.left() != null) {
            min = min.left();
        }
        return withOneFewer(min, n, n.left(), removeMin(n.right()));
    }

    private static <K, V> Node<K, V> removeMin(Node<K, V> n) {
        if (n.left() == null) {
            return n.right();
        }
        return withOneFewer(n, n, removeMin(n.left()), n.right());
    }

    /**
     * The entry of {@code entry} over {@code left} and {@code right}, the children of {@code n}
     * after one entry left one of them.
     */
    private static <K, V> Node<K, V> withOneFewer(Node<K, V> entry, Node<K, V> n, Node<K, V> left, Node<K, V> right) {
        return height(left) == height(n.left()) && height(right) == height(n.right())
                ? entry.over(left, right, n.height(), n.size() - 1)
                : balance(entry, left, right);
    }

    /** The entry of {@code entry} over {@code left} and {@code right}, rotated where their heights differ by more than one. */
    private static <K, V> Node<K, V> balance(Node<K, V> entry, Node<K, V> left, Node<K, V> right) {
        int skew = height(left) - height(right);
        if (skew > 1) {
            if (height(left.left()) < height(left.right())) {
                left = rotateLeft(left, left.left(), left.right());
            }
            return rotateRight(entry, left, right);
        }
        if (skew < -1) {
            if (height(right.right()) < height(right.left())) {
                right = rotateRight(right, right.left(), right.right());
            }
            return rotateLeft(entry, left, right);
        }
        return entry.over(left, right);
    }

    private static <K, V> Node<K, V> rotateRight(Node<K, V> entry, Node<K, V> left, Node<K, V> right) {
        return left.over(left.left(), entry.over(left.right(), right));
    }

    private static <K, V> Node<K, V> rotateLeft(Node<K, V> entry, Node<K, V> left, Node<K, V> right) {
        return right.over(entry.over(left, right.left()), right.right());
    }

    private static int height(Node<?, ?> n) {
        return n == null ? 0 : n.height();
    }

    private static int size(Node<?, ?> n) {
        return n == null ? 0 : n.size();
    }

    private static final class RangeIterator<K, V> implements Iterator<Entry<K, V>> {
        private final Deque<Node<K, V>> stack = new ArrayDeque<>();
        private final ToIntFunction<K> probe;
        private final boolean descending;
        private Node<K, V> next;

        RangeIterator(Node<K, V> root, ToIntFunction<K> probe, boolean descending) {
            this.probe = probe;
            this.descending = descending;
            // Descend to the range's first node, stacking the nodes still to visit after it.
            Node<K, V> n = root;
            while (n != null) {
                int c = probe.applyAsInt(n.key());
                boolean beforeStart = descending ? c > 0 : c < 0;
                if (beforeStart) {
                    n = descending ? n.left() : n.right();
                } else {
                    stack.push(n);
                    n = descending ? n.right() : n.left();
                }
            }
            advance();
        }

        private void advance() {
            next = null;
            if (stack.isEmpty()) {
                return;
            }
            Node<K, V> n = stack.pop();
            int c = probe.applyAsInt(n.key());
            if (descending ? c < 0 : c > 0) {
                stack.clear();
                return;
            }
            next = n;
            Node<K, V> child = descending ? n.left() : n.right();
            while (child != null) {
                stack.push(child);
                child = descending ? child.right() : child.left();
            }
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public Entry<K, V> next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            Entry<K, V> e = new Entry<>(next.key(), next.value());
            advance();
            return e;
        }
    }
}
