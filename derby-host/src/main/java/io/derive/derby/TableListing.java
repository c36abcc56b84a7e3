package io.derive.derby;

import io.derive.engine.api.DeriveException;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Derby's tables with their columns, as one query of Derby's catalog reads them, and their
 * keeping in a file inside a directory database's directory from a clean close to the next open.
 * That open then compiles and runs a one-table query of Derby's table ids
 * ({@link DerbyStore}) where it would a three-way join of Derby's catalog: a third of what an
 * open that adopts its views costs.
 *
 * <p>The listing is taken as Derby's only while Derby holds exactly the tables it lists, by id: a
 * table created or dropped behind Derive's back since the close (a re-created one has a new id)
 * makes the open read the catalog as without a listing. Columns changed in place are not seen.
 * This host's own DDL cannot go unseen: the open deletes the file, durably, before it uses the
 * listing, so no later DDL of that open (nor a crash of it) leaves a stale file behind. A file
 * that cannot be read is ignored.
 */
final class TableListing {
    private static final System.Logger LOG = System.getLogger(TableListing.class.getName());
    static final String FILE = "derive-tables.listing";
    private static final String FORMAT = "derive table listing 2";

    /** One table: Derby's id of it and its columns, name to Derby type, in order. */
    record Table(String id, Map<String, String> columns) {
    }

    private final Map<String, Table> tables;

    /** @param tables by qualified name */
    TableListing(Map<String, Table> tables) {
        this.tables = Map.copyOf(tables);
    }

    /** The columns of the table of this qualified name, name to Derby type in order; empty when there is none. */
    Map<String, String> columns(String qualified) {
        Table table = tables.get(qualified);
        return table == null ? Map.of() : table.columns();
    }

    /** The qualified names of the tables. */
    Set<String> names() {
        return tables.keySet();
    }

    /** Derby's ids of the tables. */
    Set<String> ids() {
        Set<String> ids = new HashSet<>();
        tables.values().forEach(t -> ids.add(t.id()));
        return ids;
    }

    /**
     * The listing a clean close left in {@code directory}, removed from it durably whether or not
     * it could be read; empty when there is none or it is unreadable.
     *
     * @throws DeriveException when the file cannot be removed: left behind, it would describe a
     *         database this open may change
     */
    static Optional<TableListing> take(Path directory) {
        Path file = directory.resolve(FILE);
        Optional<TableListing> listing;
        try (InputStream in = Files.newInputStream(file)) {
            listing = Optional.of(read(new DataInputStream(new BufferedInputStream(in))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "ignoring the table listing " + file + ": " + e.getMessage());
            listing = Optional.empty();
        }
        try {
            Files.delete(file);
            syncDirectory(directory);
        } catch (IOException e) {
            throw new DeriveException(DeriveException.INTERNAL, "cannot remove the table listing " + file + ": " + e.getMessage(), e);
        }
        return listing;
    }

    /**
     * Leaves this listing in {@code directory} for the next open, durably and whole: a crash while
     * writing leaves no file. Call it only after Derby has shut the database down.
     */
    void leave(Path directory) {
        Path file = directory.resolve(FILE);
        Path partial = directory.resolve(FILE + ".partial");
        try {
            try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
                 DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)))) {
                write(out);
                out.flush();
                channel.force(true);
            }
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            syncDirectory(directory);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "no table listing left in " + directory + " (the next open reads Derby's catalog): "
                    + e.getMessage());
        }
    }

    private void write(DataOutputStream out) throws IOException {
        out.writeUTF(FORMAT);
        out.writeInt(tables.size());
        for (Map.Entry<String, Table> table : tables.entrySet()) {
            out.writeUTF(table.getKey());
            out.writeUTF(table.getValue().id());
            out.writeInt(table.getValue().columns().size());
            for (Map.Entry<String, String> column : table.getValue().columns().entrySet()) {
                out.writeUTF(column.getKey());
                out.writeUTF(column.getValue());
            }
        }
    }

    private static TableListing read(DataInputStream in) throws IOException {
        if (!FORMAT.equals(in.readUTF())) {
            throw new IOException("not a listing of this format");
        }
        Map<String, Table> tables = new LinkedHashMap<>();
        for (int t = in.readInt(); t > 0; t--) {
            String name = in.readUTF();
            String id = in.readUTF();
            Map<String, String> columns = new LinkedHashMap<>();
            for (int c = in.readInt(); c > 0; c--) {
                columns.put(in.readUTF(), in.readUTF());
            }
            tables.put(name, new Table(id, columns));
        }
        if (in.read() != -1) {
            throw new IOException("bytes after the last table");
        }
        return new TableListing(tables);
    }

    /** Makes a file's creation, rename or deletion in {@code directory} durable. */
    private static void syncDirectory(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }
}
