package io.derive.engine.durable;

import io.derive.engine.spi.TableShape;
import io.derive.engine.types.Collation;
import io.derive.engine.types.SqlType;

import java.util.List;
import java.util.Objects;

/**
 * One row of a durable catalog: one table (maintained or not), secondary index, view or refresh
 * schedule. A schedule has an entry of its own so that catalogs written before schedules existed
 * read as they are.
 *
 * @param kind      {@code table}, {@code index}, {@code view} or {@code schedule}
 * @param schema    the object's schema
 * @param name      the object's name (an index's own name; a schedule's materialized view's)
 * @param seq       creation order, which replay follows within a kind
 * @param sql       the canonical DDL (a plain table's and a view's with their tags); for a
 *                  maintained table the plain table, its body and tags apart
 * @param body      a maintained table's body; null otherwise
 * @param tags      a maintained table's tags as the list of {@code set tags (…)}; null when it has none
 * @param storage   the host's {@link io.derive.engine.spi.HostedTable#storageId()}; null when it keeps nothing across opens
 * @param bodyHash  a maintained table's body hash (MV-013); null otherwise
 * @param sources   a maintained table's sources, lower-case qualified names separated by commas
 * @param stale     a maintained table in the durable stale set
 */
public record CatalogEntry(String kind, String schema, String name, long seq, String sql, String body,
                           String tags, String storage, String bodyHash, String sources, boolean stale) {

    static final String TABLE = "table";
    static final String INDEX = "index";
    static final String VIEW = "view";
    /** A materialized view's refresh schedule: its {@code sql} is the {@code alter materialized view} that sets it. */
    static final String SCHEDULE = "schedule";

    /** The shape of the host table that holds the entries, keyed by kind, schema and name. */
    static final TableShape SHAPE = new TableShape("derive", "catalog", List.of(
            text("kind"), text("schema"), text("name"), new TableShape.Column("seq", SqlType.INTEGER, Collation.BINARY, true),
            text("sql"), text("body"), text("tags"), text("storage"), text("body_hash"), text("sources"),
            new TableShape.Column("stale", SqlType.BOOLEAN, Collation.BINARY, true)),
            List.of(new TableShape.KeyPart(0, false), new TableShape.KeyPart(1, false), new TableShape.KeyPart(2, false)));

    /** The qualified name of the object an entry of kind table or view describes. */
    String qualifiedName() {
        return schema + "." + name;
    }

    String key() {
        return kind + ":" + schema + "." + name;
    }

    Object[] row() {
        return new Object[]{kind, schema, name, seq, sql, body, tags, storage, bodyHash, sources, stale};
    }

    Object[] keyValues() {
        return new Object[]{kind, schema, name};
    }

    static CatalogEntry of(Object[] row) {
        return new CatalogEntry((String) row[0], (String) row[1], (String) row[2], (Long) row[3], (String) row[4],
                (String) row[5], (String) row[6], (String) row[7], (String) row[8], (String) row[9], (Boolean) row[10]);
    }

    boolean maintained() {
        return body != null;
    }

    /** The same entry written at another position. */
    CatalogEntry at(long position) {
        return new CatalogEntry(kind, schema, name, position, sql, body, tags, storage, bodyHash, sources, stale);
    }

    /** The same entry in the durable stale set. */
    CatalogEntry asStale() {
        return new CatalogEntry(kind, schema, name, seq, sql, body, tags, storage, bodyHash, sources, true);
    }

    /** Equal in everything a reopen reads; the position is not compared. */
    boolean sameContent(CatalogEntry other) {
        return other != null && kind.equals(other.kind) && schema.equals(other.schema) && name.equals(other.name)
                && sql.equals(other.sql) && Objects.equals(body, other.body) && Objects.equals(tags, other.tags)
                && Objects.equals(storage, other.storage)
                && Objects.equals(bodyHash, other.bodyHash) && Objects.equals(sources, other.sources) && stale == other.stale;
    }

    private static TableShape.Column text(String name) {
        return new TableShape.Column(name, SqlType.TEXT, Collation.BINARY, false);
    }
}
