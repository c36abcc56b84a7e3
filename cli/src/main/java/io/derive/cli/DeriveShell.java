package io.derive.cli;

import io.derive.cli.slt.SltCommand;
import io.derive.engine.api.Database;
import io.derive.engine.api.Session;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The {@code derive} shell over an in-process database; {@code java -jar cli/target/derive.jar}.
 *
 * <p>{@code --run FILE} or {@code -e SQL} runs a script: every statement in order, a failing one
 * reported (as {@code FILE:line:column: message} on the error stream, or as a JSON line with
 * {@code --format jsonl}) without stopping the rest. With neither, statements are read
 * interactively (see {@link InteractiveLoop}).
 *
 * <p>Exit status: {@value #RAN} when the script or session ran, whatever its statements did;
 * {@value #USAGE} for bad options or a script that cannot be read; {@value #UNAVAILABLE} when the
 * database cannot be opened. The database lives as long as the command.
 *
 * <p>{@code derive slt FILE…} runs sqllogictest files instead (see {@link SltCommand});
 * {@code derive --db DIR in-doubt} and {@code derive --db DIR resolve XID commit|rollback} list
 * and decide the in-doubt transactions of a stopped server's database (see {@link InDoubtCommand}
 * and {@link ResolveCommand}).
 */
@Command(name = "derive", mixinStandardHelpOptions = true, version = "derive 0.1.0-SNAPSHOT",
        subcommands = {SltCommand.class, InDoubtCommand.class, ResolveCommand.class},
        description = "Runs SQL against an embedded Derive database, from a script or interactively.")
public final class DeriveShell implements Callable<Integer> {
    /** The script or interactive session ran; statement errors are reported, not fatal. */
    public static final int RAN = 0;
    /** The command line was wrong, or the script could not be read. */
    public static final int USAGE = 2;
    /** The database could not be opened. */
    public static final int UNAVAILABLE = 3;

    private static final String HISTORY_FILE = ".derive_history";

    @Option(names = "--memory", description = "Use a fresh in-memory database (the default).")
    private boolean memory;

    @Option(names = "--db", paramLabel = "DIR", description = "Use the Derby-backed database in DIR.")
    private Path databaseDirectory;

    @Option(names = "--host", paramLabel = "HOST", converter = HostName.Converter.class,
            description = "Host of new tables that name none: memory or derby (default: that of the database).")
    private HostName host;

    @Option(names = "--run", paramLabel = "FILE", description = "Run the statements of FILE and exit.")
    private Path scriptFile;

    @Option(names = "-e", paramLabel = "SQL", description = "Run the statements of SQL and exit.")
    private String scriptText;

    @Option(names = "--format", paramLabel = "FORMAT", converter = OutputFormat.Converter.class,
            defaultValue = "table", description = "Output: table or jsonl (default: ${DEFAULT-VALUE}).")
    private OutputFormat format;

    @Spec
    private CommandSpec spec;

    private final Supplier<LineSource> interactiveInput;
    private final PrintWriter out;
    private final PrintWriter err;

    private DeriveShell(Supplier<LineSource> interactiveInput, PrintWriter out, PrintWriter err) {
        this.interactiveInput = interactiveInput;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        // The engine logs opening and closing at INFO, which is noise on a terminal.
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        Supplier<LineSource> input = System.console() != null
                ? () -> terminalOrPlain(err)
                : () -> new PlainLineSource(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.exit(run(args, input, out, err));
    }

    /**
     * Runs the command line {@code args} with interactive input read from {@code in} as from a
     * pipe (no prompts); results go to {@code out}, errors, warnings and usage to {@code err}.
     *
     * @return the exit status: {@link #RAN}, {@link #USAGE} or {@link #UNAVAILABLE}
     */
    public static int run(String[] args, Reader in, PrintWriter out, PrintWriter err) {
        return run(args, () -> new PlainLineSource(in), out, err);
    }

    static int run(String[] args, Supplier<LineSource> interactiveInput, PrintWriter out, PrintWriter err) {
        return new CommandLine(new DeriveShell(interactiveInput, out, err)).setOut(out).setErr(err).execute(args);
    }

    @Override
    public Integer call() {
        DatabaseLocation location = location();
        Optional<Script> script;
        try {
            script = script();
        } catch (IOException e) {
            err.println("derive: cannot read " + scriptFile + ": " + whyUnreadable(e));
            err.flush();
            return USAGE;
        }
        try (Database database = location.open(Optional.ofNullable(host));
             Session session = database.openSession()) {
            TableOutput.FailureStyle failures = script.isPresent()
                    ? TableOutput.FailureStyle.LOCATED : TableOutput.FailureStyle.CARET;
            ScriptRunner runner = new ScriptRunner(session, outcomes(failures), err);
            if (script.isPresent()) {
                runner.run(script.get());
                runner.finish("script");
            } else {
                try (LineSource lines = interactiveInput.get()) {
                    new InteractiveLoop(runner).run(lines);
                }
                runner.finish("session");
            }
            return RAN;
        } catch (DatabaseLocation.Unavailable e) {
            err.println("derive: " + e.getMessage());
            err.flush();
            return UNAVAILABLE;
        }
    }

    /** The directory {@code --db} named, or null; for the subcommands that work on it. */
    Path databaseDirectory() {
        return databaseDirectory;
    }

    private DatabaseLocation location() {
        if (memory && databaseDirectory != null) {
            throw new ParameterException(spec.commandLine(), "--memory and --db cannot be used together");
        }
        return databaseDirectory != null
                ? new DatabaseLocation.DerbyDirectory(databaseDirectory)
                : new DatabaseLocation.InMemory();
    }

    /** The script to run, or empty for an interactive session. */
    private Optional<Script> script() throws IOException {
        if (scriptFile != null && scriptText != null) {
            throw new ParameterException(spec.commandLine(), "--run and -e cannot be used together");
        }
        if (scriptText != null) {
            return Optional.of(Script.of("-e", scriptText));
        }
        if (scriptFile == null) {
            return Optional.empty();
        }
        return Optional.of(Script.of(scriptFile.toString(), Files.readString(scriptFile)));
    }

    private static String whyUnreadable(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof CharacterCodingException) {
            return "it is not UTF-8 text";
        }
        return e.getMessage();
    }

    private StatementOutcomes outcomes(TableOutput.FailureStyle failureStyle) {
        return format == OutputFormat.JSONL ? new JsonLinesOutput(out) : new TableOutput(out, err, failureStyle);
    }

    /** A JLine terminal, or plain input when JLine cannot drive this console. */
    private static LineSource terminalOrPlain(PrintWriter err) {
        try {
            Path history = Path.of(System.getProperty("user.home"), HISTORY_FILE);
            return new TerminalLineSource(TerminalBuilder.builder().system(true).build(), history);
        } catch (IOException e) {
            err.println("warning: no line editing: " + e.getMessage());
            return new PlainLineSource(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        }
    }
}
