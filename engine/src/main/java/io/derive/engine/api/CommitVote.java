package io.derive.engine.api;

/** The outcome of {@link Session#prepareCommit()}, the first step of a two-step commit. */
public enum CommitVote {
    /** The transaction wrote nothing; it has already ended and must not be committed. */
    READ_ONLY,
    /** All checks passed and every registered connection is prepared; call {@link Session#commit()}. */
    PREPARED
}
