package io.derive.cli.slt;

import io.derive.cli.HostName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code derive slt FILE…}: runs sqllogictest files, each on a fresh in-memory database, and
 * prints every failure, a count line per file and the total. Exit status 0 when every record run
 * passed, 1 when some failed, 2 when a file cannot be read or is not in the format.
 */
@Command(name = "slt", mixinStandardHelpOptions = true,
        description = "Runs sqllogictest files and prints per-file and total counts.")
public final class SltCommand implements Callable<Integer> {
    /** Every record that ran passed. */
    public static final int PASSED = 0;
    /** Some record failed. */
    public static final int FAILED = 1;
    /** A file could not be read or parsed. */
    public static final int UNREADABLE = 2;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "The .test files to run.")
    private List<Path> files;

    @Option(names = "--time-limit", paramLabel = "SECONDS", defaultValue = "10",
            description = "Fail a record that runs longer (default: ${DEFAULT-VALUE}).")
    private int timeLimitSeconds;

    @Option(names = "--host", paramLabel = "HOST", defaultValue = "memory", converter = HostName.Converter.class,
            description = "Keep the tables on this host: memory or derby (default: ${DEFAULT-VALUE}).")
    private HostName host;

    @Option(names = "--quiet", description = "Print only the counts, not each failure.")
    private boolean quiet;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        SltRunner runner = new SltRunner(Duration.ofSeconds(timeLimitSeconds), host);
        List<FileResult> results = new ArrayList<>();
        for (Path file : files) {
            try {
                FileResult result = runner.run(file, file.toString());
                if (!quiet) {
                    result.failures().forEach(out::println);
                }
                out.println(result.summary());
                out.flush();
                results.add(result);
            } catch (IOException e) {
                err.println("derive slt: cannot read " + file + ": " + e.getMessage());
                err.flush();
                return UNREADABLE;
            } catch (SltFormatException e) {
                err.println("derive slt: " + e.getMessage());
                err.flush();
                return UNREADABLE;
            }
        }
        FileResult total = FileResult.total("total", results);
        out.println(total.summary());
        out.flush();
        return total.failed() == 0 ? PASSED : FAILED;
    }
}
