package io.derive.cli;

import io.derive.derby.DerbyTableModule;
import io.derive.engine.api.Database;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The durable database of {@code --db DIR} for the operator's subcommands, which work on the
 * directory of a stopped server: it must exist already (they never create a database), and the
 * server must be stopped, since Derby lets one process at a time open it.
 */
final class StoppedDatabase {
    private StoppedDatabase() {
    }

    /**
     * Opens the database of the parent command's {@code --db}.
     *
     * @throws ParameterException when {@code --db} is missing
     * @throws DatabaseLocation.Unavailable when there is no database there or it cannot be opened
     */
    static Database open(Path directory, CommandSpec spec) throws DatabaseLocation.Unavailable {
        if (directory == null) {
            throw new ParameterException(spec.commandLine(), spec.name() + " needs the database: derive --db DIR " + spec.name());
        }
        if (!Files.isDirectory(DerbyTableModule.derbyDirectory(directory))) {
            throw new DatabaseLocation.Unavailable("no Derive database at " + directory);
        }
        return new DatabaseLocation.DerbyDirectory(directory).open(Optional.empty());
    }
}
