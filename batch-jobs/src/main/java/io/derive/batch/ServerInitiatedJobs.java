package io.derive.batch;

import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

import jakarta.annotation.security.RunAs;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.JobInstance;
import jakarta.ejb.Stateless;

/**
 * The batch runtime as the server's own timers use it: the refresh scheduler and the rehydrate
 * job started with the application. With application security on, Liberty's batch runtime
 * authorizes every {@link JobOperator} call by the caller's identity, and a timer's thread has
 * none: these calls run as the {@code derive-admin} role's run-as identity, which the EAR's
 * {@code ibm-application-bnd.xml} binds to the user {@code scheduler} (Jakarta Enterprise Beans,
 * "Run-as": the identity of the calls a bean's methods make, whoever called the bean).
 */
@Stateless
@RunAs("derive-admin")
public class ServerInitiatedJobs {
    /** Instances of a job looked at for a view's latest run, newest first. */
    private static final int INSTANCES = 1000;
    /** The job parameter that says what started an execution: {@code api}, {@code schedule}, {@code catch-up} or {@code startup}. */
    public static final String TRIGGER = "trigger";

    /** A running execution of {@code job} whose {@code view} parameter is {@code view} (any, when null), if there is one. */
    public Optional<Long> running(String job, String view) {
        JobOperator operator = BatchRuntime.getJobOperator();
        if (!hasRun(operator, job)) {
            return Optional.empty();
        }
        for (Long id : operator.getRunningExecutions(job)) {
            Properties parameters = operator.getParameters(id);
            if (view == null || parameters != null && view.equalsIgnoreCase(parameters.getProperty("view"))) {
                return Optional.of(id);
            }
        }
        return Optional.empty();
    }

    /** When the latest execution of {@code job} for {@code view} was created, as the job repository keeps it. */
    public Optional<Instant> latestStart(String job, String view) {
        JobOperator operator = BatchRuntime.getJobOperator();
        Instant latest = null;
        if (!hasRun(operator, job)) {
            return Optional.empty();
        }
        for (JobInstance instance : operator.getJobInstances(job, 0, INSTANCES)) {
            for (JobExecution execution : operator.getJobExecutions(instance)) {
                Properties parameters = execution.getJobParameters();
                if (parameters != null && view.equalsIgnoreCase(parameters.getProperty("view")) && execution.getCreateTime() != null
                        && (latest == null || execution.getCreateTime().toInstant().isAfter(latest))) {
                    latest = execution.getCreateTime().toInstant();
                }
            }
        }
        return Optional.ofNullable(latest);
    }

    /**
     * Whether the job repository knows {@code job}: asking it for the executions of a job that
     * never ran throws {@code NoSuchJobException}, which Liberty also records as an incident.
     */
    private static boolean hasRun(JobOperator operator, String job) {
        return operator.getJobNames().contains(job);
    }

    /** Starts {@code job} with {@code parameters} and its {@value #TRIGGER} parameter {@code trigger}; answers the execution. */
    public long start(String job, Properties parameters, String trigger) {
        Properties withTrigger = new Properties();
        withTrigger.putAll(parameters);
        withTrigger.setProperty(TRIGGER, trigger);
        return BatchRuntime.getJobOperator().start(job, withTrigger);
    }
}
