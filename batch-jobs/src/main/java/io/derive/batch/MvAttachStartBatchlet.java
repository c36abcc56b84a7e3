package io.derive.batch;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Arrays;

/**
 * The first step of {@code mv-attach}: checks the derivation's shape against the table's and
 * takes the table's attach lease for this job instance ({@code alter table t attach start run
 * 'mv-attach:<instance>' maintained [(columns)] as <body>}), or resumes it on a restart. It runs
 * on every execution, so that a lease a crashed server held is taken again; a shape that does not
 * fit, or another instance holding the lease, fails the job with the engine's message as exit
 * status, the table untouched.
 */
@Named("mvAttachStartBatchlet")
@Dependent
public class MvAttachStartBatchlet extends ViewStatementBatchlet {

    private static final Logger LOG = System.getLogger(MvAttachStartBatchlet.class.getName());

    /** The body, a select. */
    @Inject
    @BatchProperty
    String body;

    /** The body's outputs renamed by position, comma-separated plain identifiers; empty for the body's own names. */
    @Inject
    @BatchProperty
    String columns;

    @Override
    public String process() {
        String names = columns == null || columns.isBlank() ? "" : "(" + columns + ") ";
        if (!names.isEmpty() && !Arrays.stream(columns.split(",")).map(String::strip).allMatch(Identifiers::isIdentifier)) {
            String message = "invalid column list: " + columns;
            jobContext.setExitStatus(message);
            throw new IllegalArgumentException(message);
        }
        var started = run("start of attach", "alter table ", " attach start run " + RunName.literal(jobContext)
                + " maintained " + names + "as " + body).rows().get(0);
        LOG.log(Level.INFO, "attach to table {0}: run {1} {2} at key {3}", view, started.get("run"),
                ((Number) started.get("resumed")).longValue() == 1 ? "resumed" : "started", started.get("last_key"));
        return BatchStatus.COMPLETED.name();
    }
}
