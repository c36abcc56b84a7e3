package io.derive.it.server;

import java.time.Duration;
import java.util.List;

/**
 * How a server became ready: every distinct answer {@code /health/ready} gave, in order, from
 * the launch of its process until the first UP.
 *
 * @param untilUp from the launch of the process to the first UP answer
 * @param answers the answers, consecutive equal ones counted as one; the last is UP
 */
public record Readiness(Duration untilUp, List<HealthAnswer> answers) {

    public Readiness {
        answers = List.copyOf(answers);
    }

    /** True when readiness answered DOWN (HTTP 503) at least once before it was UP. */
    public boolean wasDown() {
        return answers.stream().anyMatch(HealthAnswer::isDown);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("ready after ").append(untilUp.toMillis()).append(" ms:");
        answers.forEach(a -> s.append("\n  ").append(a));
        return s.toString();
    }
}
