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

    private record Node<K, V>(K key, V value, Node<K, V> left, Node<K, V> right, int height, int size) {
        static <K, V> Node<K, V> of(K key, V value, Node<K, V> left, Node<K, V> right) {
            return new Node<>(key, value, left, right, 1 + Math.max(PersistentTree.height(left), PersistentTree.height(right)),
                    1 + PersistentTree.size(left) + PersistentTree.size(right));
        }
    }

    /** One key and its value. */
    public record Entry<K, V>(K key, V value) {
    }

    private final Comparator<? super K> order;
    private final Node<K, V> root;

    private PersistentTree(Comparator<? super K> order, Node<K, V> root) {
        this.order = order;
        this.root = root;
    }

    /** The empty tree ordered by {@code order}. */
    public static <K, V> PersistentTree<K, V> empty(Comparator<? super K> order) {
        return new PersistentTree<>(order, null);
    }

    public int size() {
        return size(root);
    }

    public boolean isEmpty() {
        return root == null;
    }

    /** The value at {@code key}, or {@code null}. */
    public V get(K key) {
        Node<K, V> n = root;
        while (n != null) {
            int c = order.compare(key, n.key());
            if (c == 0) {
                return n.value();
            }
            n = c < 0 ? n.left() : n.right();
        }
        return null;
    }

    /** This tree with {@code value} at {@code key}; this one is unchanged. */
    public PersistentTree<K, V> put(K key, V value) {
        return new PersistentTree<>(order, put(root, key, value));
    }

    /** This tree without {@code key} (itself when it has no such key); this one is unchanged. */
    public PersistentTree<K, V> remove(K key) {
        Node<K, V> next = remove(root, key);
        return next == root ? this : new PersistentTree<>(order, next);
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
    private Node<K, V> put(Node<K, V> n, K key, V value) {
        if (n == null) {
            return new Node<>(key, value, null, null, 1, 1);
        }
        int c = order.compare(key, n.key());
        if (c == 0) {
            return new Node<>(key, value, n.left(), n.right(), n.height(), n.size());
        }
        if (c < 0) {
            Node<K, V> left = put(n.left(), key, value);
            return height(left) == height(n.left())
                    ? new Node<>(n.key(), n.value(), left, n.right(), n.height(), n.size() + left.size() - size(n.left()))
                    : balance(n.key(), n.value(), left, n.right());
        }
        Node<K, V> right = put(n.right(), key, value);
        return height(right) == height(n.right())
                ? new Node<>(n.key(), n.value(), n.left(), right, n.height(), n.size() + right.size() - size(n.right()))
                : balance(n.key(), n.value(), n.left(), right);
    }

    private Node<K, V> remove(Node<K, V> n, K key) {
        if (n == null) {
            return null;
        }
        int c = order.compare(key, n.key());
        if (c < 0) {
            Node<K, V> left = remove(n.left(), key);
            return left == n.left() ? n : withOneFewer(n.key(), n.value(), n, left, n.right());
        }
        if (c > 0) {
            Node<K, V> right = remove(n.right(), key);
            return right == n.right() ? n : withOneFewer(n.key(), n.value(), n, n.left(), right);
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
        return withOneFewer(min.key(), min.value(), n, n.left(), removeMin(n.right()));
    }

    private Node<K, V> removeMin(Node<K, V> n) {
        if (n.left() == null) {
            return n.right();
        }
        return withOneFewer(n.key(), n.value(), n, removeMin(n.left()), n.right());
    }

    /** Node {@code n} holding {@code key} over its children after one entry left one of them ({@code left} or {@code right}). */
    private static <K, V> Node<K, V> withOneFewer(K key, V value, Node<K, V> n, Node<K, V> left, Node<K, V> right) {
        return height(left) == height(n.left()) && height(right) == height(n.right())
                ? new Node<>(key, value, left, right, n.height(), n.size() - 1)
                : balance(key, value, left, right);
    }

    private static <K, V> Node<K, V> balance(K key, V value, Node<K, V> left, Node<K, V> right) {
        int skew = height(left) - height(right);
        if (skew > 1) {
            if (height(left.left()) < height(left.right())) {
                left = rotateLeft(left.key(), left.value(), left.left(), left.right());
            }
            return rotateRight(key, value, left, right);
        }
        if (skew < -1) {
            if (height(right.right()) < height(right.left())) {
                right = rotateRight(right.key(), right.value(), right.left(), right.right());
            }
            return rotateLeft(key, value, left, right);
        }
        return Node.of(key, value, left, right);
    }

    private static <K, V> Node<K, V> rotateRight(K key, V value, Node<K, V> left, Node<K, V> right) {
        return Node.of(left.key(), left.value(), left.left(), Node.of(key, value, left.right(), right));
    }

    private static <K, V> Node<K, V> rotateLeft(K key, V value, Node<K, V> left, Node<K, V> right) {
        return Node.of(right.key(), right.value(), Node.of(key, value, left, right.left()), right.right());
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
