package io.derive.engine;

/**
 * When a durable database's materialized views that cannot be adopted are refilled (semantics
 * §8, §9): see {@link DatabaseConfig#rehydrateMode()}.
 */
public enum RehydrateMode {
    /** While the database opens: once it is open, every view answers. The default. */
    INLINE,
    /**
     * Later, one view at a time, by {@code rehydrate materialized view n} (the {@code mv-rehydrate}
     * batch job runs it, sources before the views over them): the database opens as soon as its
     * catalog is replayed and the views that can be adopted are. Until its refill commits, a view
     * left to it is <em>pending</em>: a statement that reads it, or writes one of its sources
     * (directly or through views over it), fails at once with {@code materialized view 'main.v'
     * is being rehydrated}; {@code rehydrate_pending()} lists them. Writes are refused rather
     * than accepted because the refill does not capture changes committed while it runs.
     */
    DEFERRED
}
