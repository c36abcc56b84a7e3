package io.derive.batch;

import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

import jakarta.annotation.security.RunAs;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.runtime.BatchRuntime;
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
    /** The job parameter that says what started an execution: {@code api}, {@code schedule}, {@code catch-up} or {@code startup}. */
    public static final String TRIGGER = "trigger";

    /** A running execution of {@code job} whose {@code view} parameter is {@code view} (any, when null), if there is one. */
    public Optional<Long> running(String job, String view) {
        JobOperator operator = BatchRuntime.getJobOperator();
        for (String ran : JobsResource.ranOf(operator, job)) {
            for (Long id : operator.getRunningExecutions(ran)) {
                Properties parameters = operator.getParameters(id);
                if (view == null || parameters != null && view.equalsIgnoreCase(parameters.getProperty("view"))) {
                    return Optional.of(id);
                }
            }
        }
        return Optional.empty();
    }

    /** When the latest execution of {@code job} for {@code view} was created, as the job repository keeps it. */
    public Optional<Instant> latestStart(String job, String view) {
        return Optional.ofNullable(JobsResource.latestByView(job).get(view.toLowerCase(Locale.ROOT)))
                .map(execution -> execution.getCreateTime().toInstant());
    }

    /** Starts {@code job} with {@code parameters} and its {@value #TRIGGER} parameter {@code trigger}; answers the execution. */
    public long start(String job, Properties parameters, String trigger) {
        Properties withTrigger = new Properties();
        withTrigger.putAll(parameters);
        withTrigger.setProperty(TRIGGER, trigger);
        return BatchRuntime.getJobOperator().start(job, withTrigger);
    }
}
