package io.derive.engine.spi;

/**
 * Fields that fill the cache line after an object's header, so that the fields a subclass
 * declares begin at least one cache line (64 bytes) past wherever the object starts: whatever
 * the heap holds before the object never shares their line. The collector places objects as it
 * copies them, so two long-lived objects that different cores write can end up side by side,
 * and each write then costs the other core a cache miss (here, about 220 ns one way between
 * the two cores, about what a memory-host write spends maintaining a per-row view).
 *
 * <p>For the few fields every commit writes: a subclass holds them and nothing else, and its
 * final subclass declares eight {@code long}s after them, because only a subclass's fields
 * follow its superclass's (HotSpot lays a class's own fields out by size, not in the order
 * declared).
 */
public abstract class CacheLinePadding {
    // The int fills the four bytes after a compressed class pointer, which a subclass's field would take.
    @SuppressWarnings("unused")
    private int gap;
    @SuppressWarnings("unused")
    private long p1, p2, p3, p4, p5, p6, p7, p8;

    protected CacheLinePadding() {
    }
}
