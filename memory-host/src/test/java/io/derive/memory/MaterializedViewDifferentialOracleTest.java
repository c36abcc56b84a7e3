package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.mvtest.ConstraintDifferentialRun;
import io.derive.engine.mvtest.CoveringTwin;
import io.derive.engine.mvtest.CoveringTwinRun;
import io.derive.engine.mvtest.MvDifferentialRun;
import io.derive.engine.mvtest.MvShapeCatalog;
import io.derive.engine.mvtest.WorldOutcome;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MV differential test (issues 4 and 6) on the memory host: every body shape of {@link
 * MvShapeCatalog} kept under random writes, checked after every statement against a fresh
 * evaluation of its body and against the same body as a SQLite view; the constraint world
 * (declared claims over derived rows, against a SQLite trigger mirror); and the covering twins
 * (a UNIQUE with and without its covering MV must behave alike).
 *
 * <p>System properties: {@code derive.mvdiff.seed} (default 1) seeds every world (world {@code i}
 * runs seed + i); {@code derive.mvdiff.world} runs one world; {@code derive.mvdiff.statements}
 * is the total statement count (default 100,000): 70% split evenly over the shape worlds, 15% to
 * the constraint world and 15% split over the covering twins.
 */
class MaterializedViewDifferentialOracleTest {
    private static final System.Logger LOG = System.getLogger(MaterializedViewDifferentialOracleTest.class.getName());

    private static final long SEED = Long.getLong("derive.mvdiff.seed", 1L);
    private static final String ONLY = System.getProperty("derive.mvdiff.world");
    private static final int TOTAL = Integer.getInteger("derive.mvdiff.statements", 100_000);

    @Test
    void everyViewEqualsItsBodyAndSqliteAfterEveryRandomStatement() throws SQLException {
        List<String> worlds = ONLY == null ? MvShapeCatalog.worlds()
                : MvShapeCatalog.worlds().contains(ONLY) ? List.of(ONLY) : List.of();
        List<String> failures = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        long started = System.nanoTime();
        int statements = 0;
        int checks = 0;
        for (String world : worlds) {
            long worldSeed = SEED + MvShapeCatalog.worlds().indexOf(world);
            try (Database db = Derive.open(DatabaseConfig.named("mvdiff-" + world));
                 Connection sqlite = DriverManager.getConnection("jdbc:sqlite::memory:")) {
                MvDifferentialRun.Outcome outcome = new MvDifferentialRun(db, sqlite, world, worldSeed)
                        .run(share(70, worlds.size()));
                statements += outcome.statements();
                checks += outcome.checksPerShape().values().stream().mapToInt(Integer::intValue).sum();
                LOG.log(System.Logger.Level.INFO, "mvdiff world {0} (seed {1}): {2} statements {3}; arms {4};"
                        + " checks per shape {5}", world, worldSeed, outcome.statements(), outcome.statementsPerKind(),
                        outcome.arms(), outcome.checksPerShape());
                refusals.addAll(outcome.gateRefusals());
                if (outcome.failure() != null) {
                    failures.add(outcome.failure());
                }
            }
        }
        LOG.log(System.Logger.Level.INFO, "mvdiff: {0} statements, {1} MV checks in {2} ms; gate refusals {3}",
                statements, checks, (System.nanoTime() - started) / 1_000_000, refusals);
        if (!refusals.isEmpty()) {
            // A documented gate may refuse a shape (semantics §3); it is reported, not failed.
            LOG.log(System.Logger.Level.WARNING, "mvdiff: shapes refused by a create-time gate: {0}", refusals);
        }
        assertThat(failures).as("MV differential mismatches").isEmpty();
    }

    @Test
    void derivedRowsKeepEveryDeclaredClaimAndAFailedStatementLeavesNoTrace() throws SQLException {
        if (ONLY != null && !ONLY.equals(ConstraintDifferentialRun.WORLD)) {
            return;
        }
        long worldSeed = SEED + MvShapeCatalog.worlds().size();
        try (Database db = Derive.open(DatabaseConfig.named("mvdiff-constraints"));
             Connection sqlite = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            assertThat(logged(new ConstraintDifferentialRun(db, sqlite, worldSeed).run(share(15, 1))).failure())
                    .as("constraint world mismatch").isNull();
        }
    }

    @Test
    void aCoveringViewChangesNoStatementsOutcome() {
        List<String> twins = ONLY == null ? CoveringTwin.names()
                : CoveringTwin.names().contains(ONLY) ? List.of(ONLY) : List.of();
        List<String> failures = new ArrayList<>();
        for (String name : twins) {
            long worldSeed = SEED + MvShapeCatalog.worlds().size() + 1 + CoveringTwin.names().indexOf(name);
            try (Database plain = Derive.open(DatabaseConfig.named("mvdiff-" + name + "-plain"));
                 Database covered = Derive.open(DatabaseConfig.named("mvdiff-" + name + "-covered"))) {
                WorldOutcome outcome = logged(new CoveringTwinRun(plain, covered, CoveringTwin.named(name), worldSeed)
                        .run(share(15, twins.size())));
                if (outcome.failure() != null) {
                    failures.add(outcome.failure());
                }
            }
        }
        assertThat(failures).as("covering twin mismatches").isEmpty();
    }

    /** {@code percent} of the total statements, split over {@code ways} worlds. */
    private static int share(int percent, int ways) {
        return Math.max(1, (int) ((long) TOTAL * percent / 100 / ways));
    }

    private static WorldOutcome logged(WorldOutcome outcome) {
        LOG.log(System.Logger.Level.INFO, "mvdiff world {0} (seed {1}): {2} statements {3}", outcome.world(),
                outcome.seed(), outcome.statements(), outcome.statementsPerKind());
        return outcome;
    }
}
