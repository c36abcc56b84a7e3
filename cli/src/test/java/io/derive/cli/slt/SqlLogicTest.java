package io.derive.cli.slt;

import io.derive.cli.HostName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The shared sqllogictest corpus ({@code ../shared/slt} next to the repository, or the directory in
 * the system property {@code slt.corpus}), one test per file, each on a fresh database, once with
 * the tables on the memory host and once on the Derby host. A file
 * passes when every record it runs passes; records are skipped only by their conditions and by the
 * trigger rule of {@link TriggerExclusion}. Skipped, with a message, where the corpus is absent.
 */
class SqlLogicTest {
    private static final Duration RECORD_TIME_LIMIT = Duration.ofSeconds(10);
    private static final System.Logger LOG = System.getLogger(SqlLogicTest.class.getName());

    @TestFactory
    Stream<DynamicTest> everyCorpusFilePassesOnTheMemoryHost() throws IOException {
        return corpusTests(HostName.MEMORY);
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusFilePassesOnTheDerbyHost() throws IOException {
        return corpusTests(HostName.DERBY);
    }

    private static Stream<DynamicTest> corpusTests(HostName host) throws IOException {
        Optional<Path> corpus = corpus();
        if (corpus.isEmpty()) {
            // A test of its own, so that the report shows it skipped with the reason.
            return Stream.of(DynamicTest.dynamicTest("corpus", () -> assumeTrue(false,
                    "the sqllogictest corpus (../shared/slt, or -Dslt.corpus=DIR) is not there: nothing to run")));
        }
        Path root = corpus.get();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".test")).sorted().toList();
        }
        SltRunner runner = new SltRunner(RECORD_TIME_LIMIT, host);
        List<FileResult> results = new ArrayList<>();
        long start = System.nanoTime();
        Stream<DynamicTest> perFile = files.stream().map(file -> {
            String name = root.relativize(file).toString();
            return DynamicTest.dynamicTest(name, () -> {
                FileResult result = runner.run(file, name);
                results.add(result);
                assertThat(result.failures()).as(result.summary()).isEmpty();
            });
        });
        DynamicTest total = DynamicTest.dynamicTest("total", () -> LOG.log(System.Logger.Level.INFO,
                FileResult.total("total on " + host.label(), results).summary()
                        + " in " + (System.nanoTime() - start) / 1_000_000 + " ms"));
        return Stream.concat(perFile, Stream.of(total));
    }

    private static Optional<Path> corpus() {
        String configured = System.getProperty("slt.corpus");
        if (configured != null) {
            return Optional.of(Path.of(configured)).filter(Files::isDirectory);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("../shared/slt").normalize();
            if (Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
