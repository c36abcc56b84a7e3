package io.derive.derby.crash;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crash recovery of a durable database on Derby (semantics §8): a child JVM runs random
 * transactions over Derby and memory sources with materialized views on both hosts and is killed
 * with SIGKILL, again and again on the same directory, often inside a commit; after each kill the
 * database reopens here and must hold every acknowledged commit, nothing uncommitted, the
 * transaction in doubt entirely or not at all, every view equal to its body, and the adopt or
 * refill decision the rules give.
 *
 * <p>System properties: {@value #KILLS_PROPERTY} (default 30; a third of them, rounded up, must
 * land inside a commit), {@value #SEED_PROPERTY} (default random; every failure names it),
 * {@value #DIRECTORY_PROPERTY} (default {@code target/crash-recovery}: the database, the children's
 * standard error and Derby's log).
 */
class CrashRecoveryTest {
    static final String KILLS_PROPERTY = "derive.crash.kills";
    static final String SEED_PROPERTY = "derive.crash.seed";
    static final String DIRECTORY_PROPERTY = "derive.crash.dir";

    @Test
    void everyAcknowledgedCommitSurvivesSigkillAndEveryViewComesBackEqualToItsBody() throws IOException {
        int kills = Integer.getInteger(KILLS_PROPERTY, 30);
        long seed = seed();
        Path directory = Path.of(System.getProperty(DIRECTORY_PROPERTY, "target/crash-recovery")).toAbsolutePath();
        deleteRecursively(directory);
        Files.createDirectories(directory);
        Path database = directory.resolve("db");

        long started = System.nanoTime();
        CrashRun run = new CrashRun(seed, kills, database, directory);
        run.run();
        long seconds = (System.nanoTime() - started) / 1_000_000_000;

        System.getLogger(CrashRecoveryTest.class.getName()).log(System.Logger.Level.INFO,
                "CrashRecoveryTest in " + seconds + " s, " + run.summary());
        assertThat(run.kills()).as("kills, " + run.summary()).isEqualTo(kills);
        assertThat(run.killsAt(Transcript.KillPoint.INSIDE_COMMIT)).as("kills inside a commit, " + run.summary())
                .isGreaterThanOrEqualTo((kills + 2) / 3);
        assertThat(run.acknowledged()).as("acknowledged transactions, " + run.summary()).isPositive();
        deleteRecursively(database);
    }

    private static long seed() {
        String configured = System.getProperty(SEED_PROPERTY);
        return configured == null || configured.isBlank() ? new SecureRandom().nextLong() : Long.parseLong(configured.trim());
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
