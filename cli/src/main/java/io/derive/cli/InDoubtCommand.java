package io.derive.cli;

import io.derive.engine.api.Database;
import io.derive.engine.api.InDoubtBranch;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.StatementKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code derive --db DIR in-doubt}: lists the transaction branches a stopped server left in doubt
 * in the database of DIR, and those an operator decided that their transaction manager has not
 * forgotten, with what each wrote. Exit status {@value DeriveShell#RAN} when it listed them,
 * {@value DeriveShell#USAGE} without {@code --db}, {@value DeriveShell#UNAVAILABLE} when the
 * database cannot be opened.
 */
@Command(name = "in-doubt", mixinStandardHelpOptions = true,
        description = "Lists the in-doubt transactions of a stopped server's database (--db DIR).")
public final class InDoubtCommand implements Callable<Integer> {
    private static final List<String> COLUMNS = List.of("xid", "state", "decided_at", "touched");

    @ParentCommand
    private DeriveShell shell;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Database database = StoppedDatabase.open(shell.databaseDirectory(), spec)) {
            List<InDoubtBranch> branches = database.inDoubtBranches();
            if (branches.isEmpty()) {
                out.println("no in-doubt transactions");
            } else {
                TextTable.render(listing(branches)).forEach(out::println);
            }
            out.flush();
            return DeriveShell.RAN;
        } catch (DatabaseLocation.Unavailable e) {
            err.println("derive in-doubt: " + e.getMessage());
            err.flush();
            return DeriveShell.UNAVAILABLE;
        }
    }

    private static Result listing(List<InDoubtBranch> branches) {
        List<Row> rows = branches.stream().map(b -> new Row(COLUMNS, new Object[] {b.xid().toString(), b.state().label(),
            b.decidedAt() == null ? "" : b.decidedAt().toString(), String.join(", ", b.touched())})).toList();
        return new Result(StatementKind.QUERY, COLUMNS, rows, 0);
    }
}
