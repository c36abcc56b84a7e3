package io.derive.derby;

import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.mvtest.ConstraintDifferentialRun;
import io.derive.engine.mvtest.CoveringTwin;
import io.derive.engine.mvtest.CoveringTwinRun;
import io.derive.engine.mvtest.WorldOutcome;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The constraint world and the covering twins of the MV differential test (issue 6) with the
 * tables on the Derby host, where a maintained table's UNIQUE is the host's own post-batch check
 * and a REPLACE evicts through Derby. The memory host runs the bulk of the statements; this run
 * is a smaller share of the same seeded streams.
 *
 * <p>System properties: {@code derive.mvdiff.seed} (default 1) and {@code
 * derive.mvdiff.derby.statements} (default 2,000: half to the constraint world, half split over
 * the covering twins).
 */
class DerbyHostConstraintDifferentialTest {
    private static final System.Logger LOG = System.getLogger(DerbyHostConstraintDifferentialTest.class.getName());

    private static final long SEED = Long.getLong("derive.mvdiff.seed", 1L);
    private static final int TOTAL = Integer.getInteger("derive.mvdiff.derby.statements", 2_000);

    @Test
    void derivedRowsKeepEveryDeclaredClaimAndAFailedStatementLeavesNoTrace() throws SQLException {
        try (Database db = Derive.open(DerbyHosts.config("derby-mvdiff-constraints"));
             Connection sqlite = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            assertThat(logged(new ConstraintDifferentialRun(db, sqlite, SEED).run(TOTAL / 2)).failure())
                    .as("constraint world mismatch").isNull();
        }
    }

    @Test
    void aCoveringViewChangesNoStatementsOutcome() {
        List<String> failures = new ArrayList<>();
        for (CoveringTwin twin : CoveringTwin.VARIANTS) {
            try (Database plain = Derive.open(DerbyHosts.config("derby-mvdiff-" + twin.name() + "-plain"));
                 Database covered = Derive.open(DerbyHosts.config("derby-mvdiff-" + twin.name() + "-covered"))) {
                long seed = SEED + 1 + CoveringTwin.VARIANTS.indexOf(twin);
                WorldOutcome outcome = logged(new CoveringTwinRun(plain, covered, twin, seed)
                        .run(TOTAL / 2 / CoveringTwin.VARIANTS.size()));
                if (outcome.failure() != null) {
                    failures.add(outcome.failure());
                }
            }
        }
        assertThat(failures).as("covering twin mismatches").isEmpty();
    }

    private static WorldOutcome logged(WorldOutcome outcome) {
        LOG.log(System.Logger.Level.INFO, "mvdiff (derby) world {0} (seed {1}): {2} statements {3}", outcome.world(),
                outcome.seed(), outcome.statements(), outcome.statementsPerKind());
        return outcome;
    }
}
