package io.derive.cli;

import io.derive.engine.Derive;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.CommitVote;
import io.derive.engine.api.Database;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code derive --db DIR in-doubt} and {@code resolve} on the directory of a stopped server that left a branch in doubt. */
class InDoubtCommandTest {
    private static final BranchId XID = new BranchId(4711, new byte[] {(byte) 0xab, 0x01}, new byte[] {0x02});

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void leaveABranchInDoubt() {
        try (Database db = Derive.open(dir); Session s = db.openSession()) {
            s.execute("create table t (k integer primary key)");
            s.execute("insert into t values (1)");
            s.begin(XID);
            s.execute("insert into t values (2)");
            assertThat(s.prepareCommit()).isEqualTo(CommitVote.PREPARED);
        }
    }

    @Test
    void inDoubtListsTheBranchWithWhatItWrote() {
        int exit = shell("--db", dir.toString(), "in-doubt");

        assertThat(exit).isEqualTo(DeriveShell.RAN);
        assertThat(out.toString()).isEqualToNormalizingNewlines("""
                xid          | state    | decided_at | touched
                -------------+----------+------------+-------------
                4711:ab01:02 | in doubt |            | table main.t
                """);
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void resolveCommitsTheBranchAndSaysWhatItWrote() {
        int exit = shell("--db", dir.toString(), "resolve", "4711:AB01:02", "commit");

        assertThat(exit).isEqualTo(ResolveCommand.DECIDED);
        assertThat(out.toString()).isEqualToNormalizingNewlines("heuristically committed 4711:ab01:02 (it wrote table main.t)\n");
        out.getBuffer().setLength(0);
        assertThat(shell("--db", dir.toString(), "-e", "select k from t order by k")).isZero();
        assertThat(out.toString()).isEqualToNormalizingNewlines("k\n-\n1\n2\n(2 rows)\n");
    }

    @Test
    void aResolvedBranchIsListedWithItsOutcomeUntilItsTransactionManagerForgetsIt() {
        assertThat(shell("--db", dir.toString(), "resolve", "4711:ab01:02", "rollback")).isEqualTo(ResolveCommand.DECIDED);
        out.getBuffer().setLength(0);

        assertThat(shell("--db", dir.toString(), "in-doubt")).isEqualTo(DeriveShell.RAN);
        assertThat(out.toString()).contains("4711:ab01:02").contains("heuristically rolled back");
        try (Database db = Derive.open(dir)) {
            db.forgetHeuristic(XID);
        }
        out.getBuffer().setLength(0);
        assertThat(shell("--db", dir.toString(), "in-doubt")).isEqualTo(DeriveShell.RAN);
        assertThat(out.toString()).isEqualToNormalizingNewlines("no in-doubt transactions\n");
    }

    @Test
    void resolvingABranchThatIsNotInDoubtExitsWithOne() {
        int exit = shell("--db", dir.toString(), "resolve", "4711:ff:02", "commit");

        assertThat(exit).isEqualTo(ResolveCommand.REFUSED);
        assertThat(err.toString()).contains("no in-doubt transaction 4711:ff:02");
    }

    @Test
    void resolvingTwiceExitsWithOneNamingTheOutcome() {
        assertThat(shell("--db", dir.toString(), "resolve", "4711:ab01:02", "commit")).isEqualTo(ResolveCommand.DECIDED);

        assertThat(shell("--db", dir.toString(), "resolve", "4711:ab01:02", "rollback")).isEqualTo(ResolveCommand.REFUSED);
        assertThat(err.toString()).contains("was heuristically committed");
    }

    @Test
    void aMalformedXidOrOutcomeExitsWithTwo() {
        assertThat(shell("--db", dir.toString(), "resolve", "4711-ab01-02", "commit")).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).contains("formatId:gtrid-hex:bqual-hex");
        assertThat(shell("--db", dir.toString(), "resolve", "4711:ab01:02", "maybe")).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).contains("commit or rollback");
    }

    @Test
    void withoutDbExitsWithTwo() {
        assertThat(shell("in-doubt")).isEqualTo(DeriveShell.USAGE);
        assertThat(err.toString()).contains("in-doubt needs the database: derive --db DIR in-doubt");
    }

    @Test
    void aDirectoryWithoutADatabaseExitsWithThree() {
        assertThat(shell("--db", dir.resolve("nothing-here").toString(), "in-doubt")).isEqualTo(DeriveShell.UNAVAILABLE);
        assertThat(err.toString()).contains("no Derive database at");
    }

    private int shell(String... args) {
        return DeriveShell.run(args, new StringReader(""), new PrintWriter(out, true), new PrintWriter(err, true));
    }
}
