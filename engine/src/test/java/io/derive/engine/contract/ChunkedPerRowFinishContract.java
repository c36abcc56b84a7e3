package io.derive.engine.contract;

import io.derive.engine.api.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The finish of a chunked refresh run of a per-row view: it derives afresh only the rows of the
 * source keys written since the run started, not the whole body (which {@code body_evaluations}
 * counts), and publishes exactly the body; where it cannot know which keys those are, it
 * evaluates the body as any refresh does.
 */
public abstract class ChunkedPerRowFinishContract extends HostContractTest {
    private static final String BODY = "select k, g, v * 2 as w from src where g <> 3";

    @BeforeEach
    void view() {
        script("""
                create table src (k integer primary key, g integer not null, v integer not null);
                insert into src select value, value %% 5, value from generate_series(1, 50);
                create materialized view wide as %s;
                """.formatted(BODY));
    }

    @Test
    void theFinishDerivesOnlyTheKeysWrittenSinceTheRunStartedAndPublishesTheBody() {
        session.execute("refresh materialized view wide start run 'r'");
        session.execute("insert into src values (60, 0, 60)");
        session.execute("refresh materialized view wide continue run 'r' limit 20");
        script("""
                insert into src values (70, 1, 70);
                update src set v = 1000 where k = 5;
                update src set g = 3 where k = 6;
                update src set g = 0 where k = 8;
                delete from src where k = 10;
                update src set k = 80 where k = 11;
                begin;
                update src set v = 0 where k = 12;
                rollback;
                """);
        session.execute("refresh materialized view wide continue run 'r' limit 100");
        long evaluations = bodyEvaluations();

        assertThat(rows("refresh materialized view wide finish run 'r'"))
                .as("70 and 8 new, 5 changed, 6 and 10 gone, 11 moved to 80; 60 was in the evaluation")
                .containsExactly(row(7L, 1L));
        assertThat(bodyEvaluations()).as("the finish evaluated no body").isEqualTo(evaluations);
        assertThat(rows("select * from wide order by k")).isEqualTo(rows(BODY + " order by k"));
        assertThat(rows("verify materialized view wide")).isEmpty();
    }

    @Test
    void aStaleViewsFinishDerivesOnlyTheWrittenKeysToo() {
        script("""
                alter table src alter column v set data type real;
                update src set v = v + 0.5 where k % 2 = 0;
                """);
        session.execute("refresh materialized view wide start run 'r'");
        session.execute("refresh materialized view wide continue run 'r' limit 30");
        session.execute("update src set v = v + 1 where k in (2, 45)");
        session.execute("refresh materialized view wide continue run 'r' limit 30");
        long evaluations = bodyEvaluations();

        assertThat(rows("refresh materialized view wide finish run 'r'")).containsExactly(row(2L, 1L));
        assertThat(bodyEvaluations()).isEqualTo(evaluations);
        assertThat(rows("select * from wide order by k")).isEqualTo(rows(BODY + " order by k"));
        assertThat(rows("select stale from materialized_views() where name = 'wide'")).containsExactly(row(false));
    }

    @Test
    void aSourceThatChangedShapeDuringTheRunMakesTheFinishEvaluateTheBody() {
        session.execute("refresh materialized view wide start run 'r'");
        session.execute("refresh materialized view wide continue run 'r' limit 100");
        script("""
                alter table src add column note text;
                update src set v = 7 where k = 1;
                """);
        long evaluations = bodyEvaluations();

        assertThat(rows("refresh materialized view wide finish run 'r'")).containsExactly(row(1L, 1L));
        assertThat(bodyEvaluations()).isEqualTo(evaluations + 1);
        assertThat(rows("select * from wide order by k")).isEqualTo(rows(BODY + " order by k"));
    }

    @Test
    void aRunWhoseSourcesTookMoreWritesThanItRecordsMakesTheFinishEvaluateTheBody() {
        session.execute("refresh materialized view wide start run 'r'");
        session.execute("refresh materialized view wide continue run 'r' limit 100");
        session.execute("insert into src select value, value % 5, value from generate_series(1001, 101001)");
        long evaluations = bodyEvaluations();

        assertThat(rows("refresh materialized view wide finish run 'r'")).containsExactly(row(80_001L, 1L));
        assertThat(bodyEvaluations()).isEqualTo(evaluations + 1);
        assertThat(rows("select count(*) from wide")).isEqualTo(rows("select count(*) from (" + BODY + ")"));
    }

    @Test
    void startingTheSameRunAgainKeepsRecordingItsWrites() {
        session.execute("refresh materialized view wide start run 'r'");
        session.execute("refresh materialized view wide continue run 'r' limit 10");
        session.execute("update src set v = 9 where k = 2");
        assertThat(rows("refresh materialized view wide start run 'r'")).containsExactly(row("r", "main.wide__refresh", 10L, 1L));
        session.execute("refresh materialized view wide continue run 'r' limit 100");
        session.execute("update src set v = 9 where k = 40");
        long evaluations = bodyEvaluations();

        assertThat(rows("refresh materialized view wide finish run 'r'")).containsExactly(row(2L, 1L));
        assertThat(bodyEvaluations()).as("the keys written before the second start are recorded too").isEqualTo(evaluations);
        assertThat(rows("select * from wide order by k")).isEqualTo(rows(BODY + " order by k"));
    }

    @Test
    void aWriterCommittingThroughoutTheRunLeavesTheViewEqualToItsBody() throws Exception {
        AtomicBoolean finished = new AtomicBoolean();
        AtomicInteger commits = new AtomicInteger();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            Random random = new Random(11);
            try (Session other = db.openSession()) {
                while (!finished.get()) {
                    int k = 1 + random.nextInt(80);
                    other.execute(switch (random.nextInt(4)) {
                        case 0 -> "insert or replace into src values (" + k + ", " + random.nextInt(5) + ", " + k + ")";
                        case 1 -> "update src set g = (g + 1) % 5 where k = " + k;
                        case 2 -> "update or replace src set k = k + 80 where k = " + k;
                        default -> "delete from src where k = " + k;
                    });
                    commits.incrementAndGet();
                }
            }
        });
        commitsPass(commits, 10, writer);
        session.execute("refresh materialized view wide start run 'r'");
        int chunks = 0;
        boolean done = false;
        while (!done) {
            commitsPass(commits, 3, writer);
            done = rows("refresh materialized view wide continue run 'r' limit 7").get(0).get(4).equals(1L);
            chunks++;
        }
        commitsPass(commits, 3, writer);
        session.execute("refresh materialized view wide finish run 'r'");
        finished.set(true);
        writer.get();

        assertThat(chunks).as("chunks, each after writes").isGreaterThan(3);
        assertThat(rows("select * from wide order by k")).isEqualTo(rows(BODY + " order by k"));
        assertThat(rows("verify materialized view wide")).isEmpty();
    }

    /** Waits until the writer has committed {@code more} more times; throws what ended it if it ended. */
    private static void commitsPass(AtomicInteger commits, int more, CompletableFuture<Void> writer) {
        int target = commits.get() + more;
        while (commits.get() < target) {
            if (writer.isDone()) {
                writer.join();
            }
            Thread.onSpinWait();
        }
    }

    private long bodyEvaluations() {
        return (Long) rows("select body_evaluations from materialized_views() where name = 'wide'").get(0).get(0);
    }
}
