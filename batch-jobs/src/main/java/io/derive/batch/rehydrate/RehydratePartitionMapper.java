package io.derive.batch.rehydrate;

import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.Row;

import java.util.List;
import java.util.Properties;

import jakarta.annotation.Resource;
import jakarta.batch.api.partition.PartitionMapper;
import jakarta.batch.api.partition.PartitionPlan;
import jakarta.batch.api.partition.PartitionPlanImpl;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

/**
 * One partition per materialized view a deferred rehydrate left pending
 * ({@code rehydrate_pending()}), in dependency-round order, on up to {@value #THREADS} threads,
 * so the refills of one round run side by side and a later round's partition waits for its
 * sources ({@link MvRehydrateBatchlet}). The batch runtime starts partitions in plan order, so a
 * waiting partition's sources have a thread before it. The plan is made anew on a restart (it
 * overrides the last execution's), from what is still pending then.
 */
@Named("rehydratePartitionMapper")
@Dependent
public class RehydratePartitionMapper implements PartitionMapper {
    /** Refills at once at most: each holds its body's rows in memory while it runs. */
    static final int THREADS = 8;

    @Resource(lookup = "eis/derive")
    DeriveConnectionFactory connectionFactory;

    @Override
    public PartitionPlan mapPartitions() {
        List<Row> pending;
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            pending = connection.run("select schema, name, round from rehydrate_pending() order by round, schema, name").rows();
        }
        // A plan needs a partition: with nothing pending, one that reports so.
        int partitions = Math.max(1, pending.size());
        Properties[] properties = new Properties[partitions];
        for (int i = 0; i < partitions; i++) {
            properties[i] = new Properties();
            if (i < pending.size()) {
                properties[i].setProperty("schema", (String) pending.get(i).get("schema"));
                properties[i].setProperty("name", (String) pending.get(i).get("name"));
                properties[i].setProperty("round", String.valueOf(pending.get(i).get("round")));
            }
        }
        PartitionPlanImpl plan = new PartitionPlanImpl();
        plan.setPartitions(partitions);
        plan.setThreads(Math.min(partitions, THREADS));
        plan.setPartitionProperties(properties);
        plan.setPartitionsOverride(true);
        return plan;
    }
}
