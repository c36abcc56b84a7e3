package io.derive.cli;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the shell's database lives, and how to open it: the one place that knows what
 * {@code --memory} and {@code --db DIR} mean.
 */
sealed interface DatabaseLocation {

    /**
     * Opens the database.
     *
     * @param defaultHost the host for tables that name none, when {@code --host} chose one;
     *                    otherwise the location's own default
     * @throws Unavailable when the database cannot be opened, saying why
     */
    Database open(Optional<HostName> defaultHost) throws Unavailable;

    /** A fresh database whose tables live in memory and end with the shell. */
    record InMemory() implements DatabaseLocation {
        @Override
        public Database open(Optional<HostName> defaultHost) throws Unavailable {
            keepDerbyLogIn(Path.of(System.getProperty("java.io.tmpdir")));
            return openDatabase("derive", defaultHost.orElse(HostName.MEMORY), "the in-memory database");
        }
    }

    /**
     * A durable database in a directory (created when absent): its catalog and, by default, its
     * tables live in the Derby database there, and reopening it rehydrates them.
     */
    record DerbyDirectory(Path directory) implements DatabaseLocation {
        @Override
        public Database open(Optional<HostName> defaultHost) throws Unavailable {
            try {
                java.nio.file.Files.createDirectories(directory);
            } catch (java.io.IOException | RuntimeException e) {
                throw new Unavailable("cannot open the database at " + directory + ": " + e.getMessage());
            }
            keepDerbyLogIn(directory);
            try {
                DatabaseConfig config = DatabaseConfig.inDirectory(directory);
                return Derive.open(defaultHost.map(h -> config.withDefaultHost(h.label())).orElse(config));
            } catch (DeriveException e) {
                throw new Unavailable("cannot open the database at " + directory + ": " + e.getMessage());
            }
        }
    }

    /**
     * Derby writes its diagnostic log to {@code derby.log} in the working directory unless told
     * otherwise; the shell puts it beside the database (or in the temporary directory for an
     * in-memory one) rather than wherever it was started. An explicit
     * {@code -Dderby.stream.error.file} wins.
     */
    private static void keepDerbyLogIn(Path directory) {
        if (System.getProperty("derby.stream.error.file") == null) {
            System.setProperty("derby.stream.error.file", directory.resolve("derby.log").toString());
        }
    }

    private static Database openDatabase(String name, HostName defaultHost, String what) throws Unavailable {
        try {
            return Derive.open(DatabaseConfig.named(name).withDefaultHost(defaultHost.label()));
        } catch (DeriveException e) {
            throw new Unavailable("cannot open " + what + ": " + e.getMessage());
        }
    }

    /** The database cannot be opened; the message says which and why. */
    final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message);
        }
    }
}
