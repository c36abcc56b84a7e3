package io.derive.cli;

import io.derive.engine.api.Database;
import io.derive.engine.api.DatabaseConfig;
import io.derive.engine.api.Session;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The {@code derive} shell over an in-process database.
 *
 * <p>With {@code --run FILE} it runs the file's statements in order, printing each query's rows
 * as a table and each write's row count, and stops at the first error, which it reports as
 * {@code FILE:line:column: message} on the error stream with exit code 1. Without it, it reads
 * statements interactively (see {@link InteractiveLoop}) and exits with 0.
 *
 * <p>All output goes to the writers given to {@link #run}; the database lives as long as the
 * command.
 */
@Command(name = "derive", mixinStandardHelpOptions = true, version = "derive 0.1.0-SNAPSHOT",
        description = "Runs SQL against an embedded Derive database, from a script or interactively.")
public final class DeriveShell implements Callable<Integer> {
    /** Exit code of a script that failed. */
    public static final int FAILED = 1;

    @Option(names = "--run", paramLabel = "FILE", description = "Run the statements of FILE and exit.")
    private Path script;

    @Option(names = "--database", paramLabel = "NAME", defaultValue = "derive",
            description = "Name of the database in messages (default: ${DEFAULT-VALUE}).")
    private String database;

    private final Reader in;
    private final PrintWriter out;
    private final PrintWriter err;

    private DeriveShell(Reader in, PrintWriter out, PrintWriter err) {
        this.in = in;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        // The engine logs opening and closing at INFO, which is noise on a terminal.
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(run(args, new InputStreamReader(System.in), out, err));
    }

    /**
     * Runs the command line {@code args}: reads interactive input from {@code in}, prints results
     * and prompts to {@code out}, errors and usage to {@code err}.
     *
     * @return the exit code: 0 on success, {@link #FAILED} when a script failed, 2 on a usage error
     */
    public static int run(String[] args, Reader in, PrintWriter out, PrintWriter err) {
        return new CommandLine(new DeriveShell(in, out, err)).setOut(out).setErr(err).execute(args);
    }

    @Override
    public Integer call() {
        try (Database db = Database.open(DatabaseConfig.named(database));
             Session session = db.openSession()) {
            ScriptExecutor executor = new ScriptExecutor(session, new ResultPrinter(out));
            if (script == null) {
                new InteractiveLoop(executor, out, err).run(in);
                return 0;
            }
            return runScript(executor);
        }
    }

    private int runScript(ScriptExecutor executor) {
        String text;
        try {
            text = Files.readString(script);
        } catch (IOException e) {
            err.println(script + ": cannot read: " + e);
            err.flush();
            return FAILED;
        }
        Optional<ScriptExecutor.Failure> failure = executor.run(text);
        if (failure.isEmpty()) {
            return 0;
        }
        ScriptExecutor.Failure f = failure.get();
        err.println(script + ":" + f.line() + ":" + f.column() + ": " + f.message());
        err.flush();
        return FAILED;
    }
}
