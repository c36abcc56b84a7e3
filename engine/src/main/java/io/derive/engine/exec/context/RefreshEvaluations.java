package io.derive.engine.exec.context;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the chunked refresh runs of this open of the database keep in memory: for each
 * materialized view with a run, the body's rows as that run evaluated them once, in backing-key
 * order, which its {@code continue} steps write out a chunk at a time. A run whose evaluation is
 * not here (the database reopened since) evaluates its body again at its next step. Also the
 * identity of this open, by which a run's lease tells a live run from one a crash abandoned.
 */
public final class RefreshEvaluations {
    /**
     * One run's evaluation.
     *
     * @param rows the body's rows as the backing stores them, sorted by its key
     */
    public record Evaluation(String run, List<Object[]> rows) {
        public Evaluation {
            rows = List.copyOf(rows);
        }
    }

    private final String open = UUID.randomUUID().toString();
    private final ConcurrentHashMap<String, Evaluation> byView = new ConcurrentHashMap<>();

    /** Differs between any two opens of a database, also two opens in one process. */
    public String open() {
        return open;
    }

    /** The evaluation {@code run} keeps of the view {@code view} ({@code schema.name}); empty when it has none here. */
    public Optional<Evaluation> of(String view, String run) {
        return Optional.ofNullable(byView.get(view)).filter(e -> e.run().equals(run));
    }

    public void keep(String view, Evaluation evaluation) {
        byView.put(view, evaluation);
    }

    /** Forgets the view's evaluation, whichever run made it. */
    public void forget(String view) {
        byView.remove(view);
    }
}
