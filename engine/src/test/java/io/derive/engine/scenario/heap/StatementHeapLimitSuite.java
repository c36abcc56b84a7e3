package io.derive.engine.scenario.heap;

import io.derive.engine.api.DeriveException;
import io.derive.engine.scenario.ChildJvm;
import io.derive.engine.txn.HeapPressure;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A statement that would fill the heap fails with {@link DeriveException#OUT_OF_MEMORY}, is undone,
 * and the session goes on: run in a JVM of its own with a 128 MB heap, where running out of memory
 * would otherwise end it, on the host a module's subclass names (the JVM has this one's class path).
 */
public abstract class StatementHeapLimitSuite {
    /** The table module the child's database hosts its tables on. */
    protected abstract String host();

    @Test
    void aStatementThatFillsTheHeapIsStoppedAtTheLimitAndTheSessionGoesOn() throws Exception {
        // below the default 90 %, so that a collection's reading reaches the statement with room to spare
        List<String> lines = runChild(List.of("-D" + HeapPressure.LIMIT_PROPERTY + "=0.8"));

        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("error " + DeriveException.OUT_OF_MEMORY + " ")
                .contains("full after garbage collection, over the limit of 80%")
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
        List<String> jvm = new ArrayList<>(List.of("-Xmx128m"));
        jvm.addAll(options);
        return ChildJvm.run(jvm, HeapHungryStatement.class, 2, host());
    }
}
