package io.derive.cli;

import io.derive.engine.api.BranchId;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.InDoubtBranch;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code derive --db DIR resolve XID commit|rollback}: an operator's heuristic decision of a
 * branch a stopped server left in doubt, for when its transaction manager cannot decide it (see
 * {@link Database#resolveHeuristically}). XID is written as {@code derive in-doubt} lists it
 * ({@code formatId:gtrid-hex:bqual-hex}). Exit status {@value #DECIDED} when the branch is
 * decided, {@value #REFUSED} when the database has no such branch in doubt (or it is decided
 * already), {@value DeriveShell#USAGE} for a bad XID or outcome or without {@code --db},
 * {@value DeriveShell#UNAVAILABLE} when the database cannot be opened.
 */
@Command(name = "resolve", mixinStandardHelpOptions = true,
        description = "Commits or rolls back an in-doubt transaction of a stopped server's database (--db DIR).")
public final class ResolveCommand implements Callable<Integer> {
    /** The branch is decided, and the decision recorded until its transaction manager forgets it. */
    public static final int DECIDED = 0;
    /** The database refused: no such branch is in doubt, or it is decided already. */
    public static final int REFUSED = 1;

    @ParentCommand
    private DeriveShell shell;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "XID", converter = XidConverter.class,
            description = "The transaction, as in-doubt lists it: formatId:gtrid-hex:bqual-hex.")
    private BranchId xid;

    @Parameters(index = "1", paramLabel = "OUTCOME", converter = OutcomeConverter.class,
            description = "commit or rollback.")
    private Outcome outcome;

    /** What the operator decides. */
    enum Outcome { COMMIT, ROLLBACK }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Database database = StoppedDatabase.open(shell.databaseDirectory(), spec)) {
            database.resolveHeuristically(xid, outcome == Outcome.COMMIT);
            InDoubtBranch decided = database.inDoubtBranches().stream().filter(b -> b.xid().equals(xid)).findFirst().orElseThrow();
            out.println(decided.state().label() + " " + xid + (decided.touched().isEmpty() ? ""
                    : " (it wrote " + String.join(", ", decided.touched()) + ")"));
            out.flush();
            return DECIDED;
        } catch (DeriveException e) {
            err.println("derive resolve: " + e.getMessage());
            err.flush();
            return REFUSED;
        } catch (DatabaseLocation.Unavailable e) {
            err.println("derive resolve: " + e.getMessage());
            err.flush();
            return DeriveShell.UNAVAILABLE;
        }
    }

    /** Reads XID as {@link BranchId#toString()} writes it. */
    static final class XidConverter implements ITypeConverter<BranchId> {
        @Override
        public BranchId convert(String value) {
            try {
                return BranchId.parse(value);
            } catch (DeriveException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Reads OUTCOME: {@code commit} or {@code rollback}. */
    static final class OutcomeConverter implements ITypeConverter<Outcome> {
        @Override
        public Outcome convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "commit" -> Outcome.COMMIT;
                case "rollback" -> Outcome.ROLLBACK;
                default -> throw new TypeConversionException("the outcome is commit or rollback, not '" + value + "'");
            };
        }
    }
}
