package io.derive.it.server;

import java.time.Duration;

/**
 * What a health endpoint answered, as a client saw it, possibly several polls in a row.
 *
 * @param httpStatus the HTTP status; {@link #NO_ANSWER} when nothing answered (connection
 *                   refused, reset or timed out)
 * @param status     the {@code status} member of the JSON body ({@code UP} or {@code DOWN}),
 *                   empty when there was none
 * @param body       the body, or what failed when nothing answered
 * @param after      how long after the server process was launched it was first seen
 * @param polls      how many polls in a row gave this answer
 */
public record HealthAnswer(int httpStatus, String status, String body, Duration after, int polls) {

    /** The {@link #httpStatus()} of a poll that got no HTTP answer at all. */
    public static final int NO_ANSWER = 0;

    /** True for a real answer of a server that is not ready: HTTP 503 with status DOWN. */
    public boolean isDown() {
        return httpStatus == 503 && status.equals("DOWN");
    }

    /** True for HTTP 200 with status UP. */
    public boolean isUp() {
        return httpStatus == 200 && status.equals("UP");
    }

    /** True when this poll and {@code other} got the same answer. */
    boolean sameAs(HealthAnswer other) {
        return httpStatus == other.httpStatus && status.equals(other.status) && body.equals(other.body);
    }

    HealthAnswer seenAgain() {
        return new HealthAnswer(httpStatus, status, body, after, polls + 1);
    }

    @Override
    public String toString() {
        String answer = httpStatus == NO_ANSWER ? "no answer" : Integer.toString(httpStatus);
        return String.format("%6.2f s: %s %s (x%d)", after.toMillis() / 1000.0, answer, body, polls);
    }
}
