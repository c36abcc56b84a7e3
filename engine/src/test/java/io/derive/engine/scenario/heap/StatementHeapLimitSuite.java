package io.derive.engine.scenario.heap;

import io.derive.engine.api.DeriveException;
import io.derive.engine.scenario.ChildJvm;
import io.derive.engine.txn.HeapPressure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A statement that would fill the heap fails with {@link DeriveException#OUT_OF_MEMORY}, is undone,
 * and the session goes on: run in a JVM of its own with a 256 MB heap, where running out of memory
 * would otherwise end it, on the host a module's subclass names (the JVM has this one's class path).
 */
public abstract class StatementHeapLimitSuite {
    /** The table module the child's database hosts its tables on. */
    protected abstract String host();

    /**
     * Under each of HotSpot's collectors. The parallel and serial ones keep the old generation to
     * part of the heap, so that it is full — collections following each other, the statement
     * crawling — while the heap as a whole stays under the default limit. G1 fills the whole heap;
     * its limit is set lower, so that a collection's reading reaches the statement with room to spare.
     */
    @ParameterizedTest(name = "{0}, limit {1}")
    @CsvSource({"-XX:+UseG1GC, 0.8", "-XX:+UseParallelGC, 0.9", "-XX:+UseSerialGC, 0.9"})
    void aStatementThatFillsTheHeapIsStoppedAtTheLimitAndTheSessionGoesOn(String collector, String limit) throws Exception {
        List<String> lines = runChild(List.of(collector, "-D" + HeapPressure.LIMIT_PROPERTY + "=" + limit));

        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("error " + DeriveException.OUT_OF_MEMORY + " ")
                .contains("full after garbage collection, over the limit of " + Math.round(Double.parseDouble(limit) * 100) + "%")
                .contains(HeapPressure.LIMIT_PROPERTY));
        assertThat(lines).contains("after 2");
    }

    @Test
    void withTheLimitOffAStatementThatRunsOutOfMemoryIsUndoneAndTheSessionGoesOn() throws Exception {
        List<String> lines = runChild(List.of("-D" + HeapPressure.LIMIT_PROPERTY + "=1"));

        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("error " + DeriveException.OUT_OF_MEMORY + " ")
                .contains("ran out of memory and was undone"));
        assertThat(lines).contains("after 2");
    }

    private List<String> runChild(List<String> options) throws IOException, InterruptedException {
        List<String> jvm = new ArrayList<>(List.of("-Xmx256m"));
        jvm.addAll(options);
        // a statement the heap limit misses crawls on between collections: a minute is far beyond the seconds it takes
        return ChildJvm.run(jvm, HeapHungryStatement.class, 1, host());
    }
}
