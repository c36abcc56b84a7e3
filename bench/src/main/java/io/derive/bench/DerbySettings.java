package io.derive.bench;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;

import java.nio.file.Path;

/**
 * The JVM-wide Derby settings of every benchmark, on both sides of a pair: Derby reads them when
 * it boots a database, so they must be in place before the first boot, whichever side boots
 * first. A Derive database on the Derby host and its Derby floor then run on the same Derby with
 * the same page cache, and neither writes {@code derby.log} into the working directory.
 */
final class DerbySettings {
    /**
     * Pages of Derby's page cache, per database: enough for every benchmark table, so that the
     * floor (and the Derby host) is Derby at its best. Its default of 1,000 pages (4 MB) is
     * smaller than 100k rows, and a cache miss copies the page from Derby's in-memory store.
     */
    private static final String PAGE_CACHE_PAGES = "40000";

    static {
        setUnlessGiven("derby.stream.error.file",
                Path.of(System.getProperty("java.io.tmpdir"), "derive-bench-derby.log").toString());
        setUnlessGiven("derby.storage.pageCacheSize", PAGE_CACHE_PAGES);
    }

    private DerbySettings() {
    }

    /** Puts the settings in place (once; later calls do nothing). */
    static void apply() {
        // The static initializer does the work; calling this forces it.
    }

    /**
     * A fresh Derive database whose tables live on the Derby host, in the in-memory Derby database
     * that the host's no-argument module (the one ServiceLoader finds) shares within the JVM.
     */
    static Database deriveOnDerby(String name) {
        apply();
        return Derive.open(DatabaseConfig.named(name).withDefaultHost("derby"));
    }

    /** {@link #deriveOnDerby(String)} on a Derby host of the given module (its options, the same shared Derby). */
    static Database deriveOnDerby(String name, io.derive.derby.DerbyTableModule module) {
        apply();
        return Derive.open(DatabaseConfig.named(name).withDefaultHost("derby").withModule(module));
    }

    private static void setUnlessGiven(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
