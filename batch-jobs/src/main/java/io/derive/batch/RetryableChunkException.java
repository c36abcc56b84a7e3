package io.derive.batch;

/**
 * A chunk of {@code mv-refresh} the engine refused for a lock timeout or a deadlock (SQLSTATE
 * class 40): the chunk's transaction rolled back, and the job retries it (the JSL lists this
 * class as retryable; no exception is skippable, so no row is ever left out).
 */
public class RetryableChunkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RetryableChunkException(String message, Throwable cause) {
        super(message, cause);
    }
}
