package io.derive.engine.scenario;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No statement, however mangled, lets anything but a {@link DeriveException} reach its caller:
 * the scenario statements, each preceded by mutated copies ({@link MutatedStatements}, a fixed
 * seed), run in a JVM of 256 MB on the host a module's subclass names.
 */
public abstract class MutatedStatementsSuite {
    /** The table module the child's databases host their tables on. */
    protected abstract String host();

    @Test
    void everyMutatedScenarioStatementRunsOrFailsWithADeriveException() throws Exception {
        List<String> lines = ChildJvm.run(List.of("-Xmx256m"), MutatedStatements.class, 10, host(), "20261207", "2");

        assertThat(lines).filteredOn(line -> line.startsWith("escape ")).isEmpty();
        String done = lines.stream().filter(line -> line.startsWith("done ")).findFirst().orElseThrow();
        String[] counts = done.split(" ");
        // most copies are malformed: if few were refused, the mutations stopped mutating
        assertThat(Long.parseLong(counts[2])).as(done).isGreaterThan(Long.parseLong(counts[1]) / 2);
    }
}
