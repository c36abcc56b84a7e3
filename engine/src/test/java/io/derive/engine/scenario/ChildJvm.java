package io.derive.engine.scenario;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs a class's {@code main} in a JVM of its own, with this JVM's class path: for what must not
 * happen in the test JVM, such as filling a small heap. Its standard output and error are its
 * lines, read to the end.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * The lines the child printed; fails the test unless it exits with status 0 within
     * {@code minutes}.
     */
    public static List<String> run(List<String> jvmOptions, Class<?> main, int minutes, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        Thread reader = new Thread(() -> {
            try (var out = child.inputReader(StandardCharsets.UTF_8)) {
                out.lines().forEach(line -> {
                    synchronized (lines) {
                        lines.add(line);
                    }
                });
            } catch (IOException e) {
                // the child's output ended with it
            }
        });
        reader.start();
        boolean ended = child.waitFor(minutes, TimeUnit.MINUTES);
        if (!ended) {
            child.destroyForcibly();
        }
        reader.join();
        assertThat(ended).as("%s ended within %d minutes; its output: %s", main.getSimpleName(), minutes, lines).isTrue();
        assertThat(child.exitValue()).as("%s's exit status; its output: %s", main.getSimpleName(), lines).isZero();
        return lines;
    }
}
