package io.derive.batch.schedule;

import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

import jakarta.annotation.security.RunAs;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.NoSuchJobException;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.JobInstance;
import jakarta.ejb.Stateless;

/**
 * The batch runtime as the scheduler uses it. With application security on, Liberty's batch
 * runtime authorizes every {@link JobOperator} call by the caller's identity, and a timer's thread
 * has none: these calls run as the {@code derive-admin} role's run-as identity, which the EAR's
 * {@code ibm-application-bnd.xml} binds to the user {@code scheduler} (EJB spec, "Run-as": the
 * identity of the calls a bean's methods make, whoever called the bean).
 */
@Stateless
@RunAs("derive-admin")
public class ScheduledRuns {
    private static final String MV_REFRESH = "mv-refresh";
    /** Instances of mv-refresh looked at for a view's latest run, newest first. */
    private static final int INSTANCES = 1000;
    /** The job parameter that says what started an execution: {@code schedule} or {@code catch-up}. */
    public static final String TRIGGER = "trigger";

    /** A running execution of {@code mv-refresh} for {@code view}, if there is one. */
    public Optional<Long> runningRefresh(String view) {
        JobOperator operator = BatchRuntime.getJobOperator();
        try {
            for (Long id : operator.getRunningExecutions(MV_REFRESH)) {
                Properties parameters = operator.getParameters(id);
                if (parameters != null && view.equalsIgnoreCase(parameters.getProperty("view"))) {
                    return Optional.of(id);
                }
            }
        } catch (NoSuchJobException neverRun) {
            // no execution of mv-refresh yet
        }
        return Optional.empty();
    }

    /** When the latest execution of {@code mv-refresh} for {@code view} was created, as the job repository keeps it. */
    public Optional<Instant> latestRefreshStart(String view) {
        JobOperator operator = BatchRuntime.getJobOperator();
        Instant latest = null;
        try {
            for (JobInstance instance : operator.getJobInstances(MV_REFRESH, 0, INSTANCES)) {
                for (JobExecution execution : operator.getJobExecutions(instance)) {
                    Properties parameters = execution.getJobParameters();
                    if (parameters != null && view.equalsIgnoreCase(parameters.getProperty("view")) && execution.getCreateTime() != null
                            && (latest == null || execution.getCreateTime().toInstant().isAfter(latest))) {
                        latest = execution.getCreateTime().toInstant();
                    }
                }
            }
        } catch (NoSuchJobException neverRun) {
            // no execution of mv-refresh yet
        }
        return Optional.ofNullable(latest);
    }

    /** Starts {@code mv-refresh} for {@code view}, its {@value #TRIGGER} parameter {@code trigger}; answers the execution. */
    public long startRefresh(String view, String trigger) {
        Properties parameters = new Properties();
        parameters.setProperty("view", view);
        parameters.setProperty(TRIGGER, trigger);
        return BatchRuntime.getJobOperator().start(MV_REFRESH, parameters);
    }
}
