package io.derive.engine.mv;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One statement's changes to the groups of one fast-path group MV: for each group a source write
 * touched, its key values and a working copy of its state, to which the statement's row changes
 * have been applied in order — or no state, when the store did not know the group or the state
 * could not take a change exactly, and the group must be derived from the source at statement
 * end. Lives in the statement's {@link DeferredMaintenance}, so a failing statement leaves no trace.
 */
final class GroupChanges {

    /** One touched group. */
    static final class Touched {
        private final List<Object> group;
        private final Object[] key;
        private final GroupState prior;
        private GroupState state;

        private Touched(List<Object> group, Object[] key, GroupState known, boolean published) {
            this.group = group;
            this.key = key;
            this.prior = published ? known : null;
            this.state = known == null ? null : known.copy();
        }

        /** The group's equality key. */
        List<Object> group() {
            return group;
        }

        /** The group's key values, as the first row that touched it has them. */
        Object[] key() {
            return key;
        }

        /** The working state, or null when the group must be derived at statement end. */
        GroupState state() {
            return state;
        }

        /**
         * The store's state at the first touch (left unchanged) when the backing holds what it
         * publishes; null when the store knew none or the backing may hold something else.
         */
        GroupState prior() {
            return prior;
        }

        /** Gives the state up: the group will be derived at statement end. */
        void derive() {
            state = null;
        }
    }

    private final Map<List<Object>, Touched> touched = new LinkedHashMap<>();

    /**
     * The touched group with this equality key, made from the store's state (copied) at the first
     * touch, which runs {@code lock} first: the store holds one transaction's uncommitted states,
     * so a group's state is read only by the transaction holding the group's lock.
     *
     * @param published whether the backing holds what the store's states publish
     */
    Touched touch(List<Object> group, Object[] key, GroupStateStore store, boolean published, Runnable lock) {
        Touched t = touched.get(group);
        if (t == null) {
            lock.run();
            t = new Touched(group, key, store.get(group), published);
            touched.put(group, t);
        }
        return t;
    }

    /** The touched groups, in first-touch order. */
    Collection<Touched> touched() {
        return touched.values();
    }
}
