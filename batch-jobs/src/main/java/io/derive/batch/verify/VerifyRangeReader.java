package io.derive.batch.verify;

import io.derive.batch.Identifiers;
import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.Row;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import jakarta.annotation.Resource;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * The reader of {@code mv-verify}'s step: its items are the ranges of the view's key, each the
 * next {@code rangeRows} keys the view holds after the last verified range (the last range is
 * open-ended, so keys the body has beyond the view's last are verified too). A view without
 * declared key columns is verified as one range. Its checkpoint is the {@link DriftTally}: a
 * restart continues after the last range a committed chunk verified.
 */
@Named("verifyRangeReader")
@Dependent
public class VerifyRangeReader extends AbstractItemReader {

    @Inject
    @BatchProperty
    String view;

    @Inject
    @BatchProperty
    String rangeRows;

    @Inject
    JobContext jobContext;

    @Inject
    StepContext stepContext;

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory connectionFactory;

    private DriftTally tally;

    @Override
    public void open(Serializable checkpoint) {
        if (!Identifiers.isIdentifier(view)) {
            // The name goes into SQL text, so anything but a plain identifier is refused outright.
            String message = "invalid materialized view name: " + view;
            jobContext.setExitStatus(message);
            throw new IllegalArgumentException(message);
        }
        if (checkpoint != null) {
            tally = ((DriftTally) checkpoint).copy();
        } else {
            try (DeriveConnection connection = connectionFactory.getConnection()) {
                List<String> key = connection.query("select name from table_info('" + view + "') where pk > 0 order by pk")
                        .stream().map(r -> (String) r.get("name")).toList();
                List<Row> rows = connection.query("select row_count from materialized_views() where schema = 'main' and name = ?",
                        view.toLowerCase(Locale.ROOT));
                tally = new DriftTally(key, rows.isEmpty() ? -1 : ((Number) rows.get(0).get("row_count")).longValue());
            }
        }
        stepContext.setTransientUserData(tally);
    }

    @Override
    public Object readItem() {
        if (tally.done()) {
            return null;
        }
        if (tally.keyColumns().isEmpty()) {
            return new KeyRange(null, null, Math.max(0, tally.expected()));
        }
        int size = Integer.parseInt(rangeRows);
        KeyRange from = new KeyRange(tally.after(), null, 0);
        KeyRange.Predicate after = from.predicate(tally.keyColumns());
        String columns = String.join(", ", tally.keyColumns().stream().map(KeyRange::quoted).toList());
        String where = after == null ? "" : " where " + after.sql();
        List<Object> parameters = new ArrayList<>(after == null ? List.of() : after.parameters());
        parameters.add(size - 1);
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            List<Row> last = connection.query("select " + columns + " from " + view + where + " order by " + columns
                    + " limit 1 offset ?", parameters.toArray());
            if (!last.isEmpty()) {
                return new KeyRange(tally.after(), new ArrayList<>(last.get(0).values()), size);
            }
            long remaining = ((Number) connection.query("select count(*) from " + view + where,
                    parameters.subList(0, parameters.size() - 1).toArray()).get(0).values().get(0)).longValue();
            return new KeyRange(tally.after(), null, remaining);
        }
    }

    @Override
    public Serializable checkpointInfo() {
        return tally.copy();
    }
}
