package io.derive.engine.spi;

import io.derive.engine.types.Collation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class PersistentTreeTest {

    @Test
    void behavesLikeATreeMapUnderRandomEdits() {
        Random random = new Random(42);
        TreeMap<Integer, Integer> model = new TreeMap<>();
        PersistentTree<Integer, Integer> tree = PersistentTree.empty(Comparator.naturalOrder());
        for (int step = 0; step < 20_000; step++) {
            int key = random.nextInt(500);
            if (random.nextInt(3) == 0) {
                model.remove(key);
                tree = tree.remove(key);
            } else {
                model.put(key, step);
                tree = tree.put(key, step);
            }
        }
        assertThat(tree.size()).isEqualTo(model.size());
        assertThat(tree.height()).isLessThanOrEqualTo(avlBound(model.size()));
        assertThat(entries(tree, k -> 0, false)).isEqualTo(new ArrayList<>(model.entrySet()).stream()
                .map(e -> List.of(e.getKey(), e.getValue())).toList());
        for (int key = 0; key < 500; key++) {
            assertThat(tree.get(key)).isEqualTo(model.get(key));
        }
    }

    @Test
    void keysOfValuesOrderAsTheirKeyOrderWhateverTheirFirstComponentsTypes() {
        for (boolean descending : new boolean[] {false, true}) {
            for (int width = 1; width <= 2; width++) {
                KeyOrder order = new KeyOrder(java.util.Collections.nCopies(width, Collation.BINARY),
                        width == 1 ? List.of(descending) : List.of(descending, false));
                Random random = new Random(7);
                TreeMap<Object[], Integer> model = new TreeMap<>(order);
                PersistentTree<Object[], Integer> tree = PersistentTree.empty(order);
                for (int step = 0; step < 20_000; step++) {
                    Object[] key = width == 1 ? new Object[] {firstComponent(random)}
                            : new Object[] {firstComponent(random), (long) random.nextInt(4)};
                    if (random.nextInt(3) == 0) {
                        model.remove(key);
                        tree = tree.remove(key);
                    } else {
                        // the tree keeps the key last put, of its equal keys (1 and 1.0)
                        model.remove(key);
                        model.put(key, step);
                        tree = tree.put(key, step);
                    }
                }
                List<List<Object>> expected = model.entrySet().stream()
                        .map(e -> List.<Object>of(Arrays.asList(e.getKey()), e.getValue())).toList();
                List<List<Object>> actual = new ArrayList<>();
                tree.forEach((key, value) -> actual.add(List.of(Arrays.asList(key), value)));
                assertThat(actual).as("descending %s, width %d", descending, width).isEqualTo(expected);
                for (Object[] key : model.keySet()) {
                    assertThat(tree.get(key)).isEqualTo(model.get(key));
                }
            }
        }
    }

    /** Mostly integers, also reals between and equal to them, a text, and NULL as a first key component. */
    private static Object firstComponent(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> random.nextInt(40) / 2.0;
            case 1 -> "t" + random.nextInt(3);
            case 2 -> new Object[] {null}[0];
            default -> (long) random.nextInt(20);
        };
    }

    @Test
    void staysBalancedUnderOrderedInsertsAndRemovals() {
        PersistentTree<Integer, Integer> tree = PersistentTree.empty(Comparator.naturalOrder());
        for (int key = 0; key < 100_000; key++) {
            tree = tree.put(key, key);
        }
        assertThat(tree.height()).isLessThanOrEqualTo(avlBound(100_000));
        for (int key = 0; key < 100_000; key += 3) {
            tree = tree.remove(key);
        }
        for (int key = 99_997; key >= 0; key -= 3) {
            tree = tree.remove(key);
        }
        assertThat(tree.size()).isEqualTo(33_333);
        assertThat(tree.height()).isLessThanOrEqualTo(avlBound(33_333));
    }

    @Test
    void forEachVisitsEveryEntryInKeyOrder() {
        PersistentTree<Integer, String> tree = PersistentTree.<Integer, String>empty(Comparator.naturalOrder())
                .put(3, "c").put(1, "a").put(2, "b").put(5, "e").put(4, "d");
        List<String> visited = new ArrayList<>();

        tree.forEach((key, value) -> visited.add(key + value));

        assertThat(visited).containsExactly("1a", "2b", "3c", "4d", "5e");
    }

    /** The greatest height an AVL tree of {@code size} entries can have. */
    private static int avlBound(int size) {
        return (int) Math.floor(1.4405 * Math.log(size + 2) / Math.log(2) - 0.3277);
    }

    @Test
    void anOldVersionIsUnchangedByLaterEdits() {
        PersistentTree<Integer, String> v1 = PersistentTree.<Integer, String>empty(Comparator.naturalOrder())
                .put(1, "a").put(2, "b");
        PersistentTree<Integer, String> v2 = v1.put(3, "c").remove(1);
        assertThat(keys(v1)).containsExactly(1, 2);
        assertThat(keys(v2)).containsExactly(2, 3);
    }

    @Test
    void rangeVisitsOnlyTheProbedRangeInBothDirections() {
        PersistentTree<Integer, Integer> tree = PersistentTree.empty(Comparator.naturalOrder());
        for (int i = 0; i < 100; i++) {
            tree = tree.put(i, i);
        }
        // the "prefix" here is the tens digit 4: keys 40..49
        List<List<Integer>> ascending = entries(tree, k -> Integer.compare(k / 10, 4), false);
        List<List<Integer>> descending = entries(tree, k -> Integer.compare(k / 10, 4), true);
        assertThat(ascending).extracting(e -> e.get(0)).containsExactly(40, 41, 42, 43, 44, 45, 46, 47, 48, 49);
        assertThat(descending).extracting(e -> e.get(0)).containsExactly(49, 48, 47, 46, 45, 44, 43, 42, 41, 40);
    }

    private static List<Integer> keys(PersistentTree<Integer, ?> tree) {
        List<Integer> keys = new ArrayList<>();
        tree.range(k -> 0, false).forEachRemaining(e -> keys.add(e.key()));
        return keys;
    }

    private static List<List<Integer>> entries(PersistentTree<Integer, Integer> tree,
                                               java.util.function.ToIntFunction<Integer> probe, boolean descending) {
        List<List<Integer>> out = new ArrayList<>();
        tree.range(probe, descending).forEachRemaining(e -> out.add(List.of(e.key(), e.value())));
        return out;
    }

}
