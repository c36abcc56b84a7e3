package io.derive.batch.rehydrate;

import java.io.Serializable;
import java.time.Instant;

/**
 * What one partition of {@code mv-rehydrate} did: the refill of one materialized view.
 *
 * @param view    its qualified name
 * @param round   its dependency round (1: no source of it was pending)
 * @param started when the partition began; it may then wait for the refills of its sources
 * @param ended   when its refill committed or failed
 * @param rows    the rows the refill wrote; 0 when it wrote none
 * @param outcome {@code refilled}, {@code already rehydrated} (a restart found it done) or the engine's refusal
 */
public record RefillRecord(String view, int round, Instant started, Instant ended, long rows, String outcome)
        implements Serializable {
}
