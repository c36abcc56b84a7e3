package io.derive.engine.durable;

import io.derive.engine.schema.CanonicalDdl;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.Derivation;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.Tags;
import io.derive.engine.schema.ViewSchema;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/** The catalog entries that describe a catalog's objects (positions left at 0 for the caller to assign). */
final class CatalogEntries {
    private CatalogEntries() {
    }

    /** Every durable object of {@code catalog} by {@link CatalogEntry#key()}; the temp schema does not outlive a session. */
    static Map<String, CatalogEntry> of(Catalog catalog) {
        Map<String, CatalogEntry> entries = new LinkedHashMap<>();
        for (TableSchema table : catalog.tables()) {
            if (!table.schema().equalsIgnoreCase(Catalog.TEMP)) {
                of(catalog, table).forEach(e -> entries.put(e.key(), e));
            }
        }
        for (ViewSchema view : catalog.views()) {
            if (!view.schema().equalsIgnoreCase(Catalog.TEMP)) {
                CatalogEntry e = new CatalogEntry(CatalogEntry.VIEW, view.schema(), view.name(), 0, CanonicalDdl.view(view),
                        null, null, null, null, null, false);
                entries.put(e.key(), e);
            }
        }
        return entries;
    }

    /** A table's entry followed by its refresh schedule's and those of its secondary indexes. */
    static java.util.List<CatalogEntry> of(Catalog catalog, TableSchema table) {
        java.util.List<CatalogEntry> entries = new java.util.ArrayList<>();
        Derivation d = table.derivation();
        String storage = table.storage().storageId().orElse(null);
        entries.add(new CatalogEntry(CatalogEntry.TABLE, table.schema(), table.name(), 0,
                CanonicalDdl.table(d == null ? table : table.withDerivation(null).withTags(Tags.NONE)),
                d == null ? null : d.bodySql(), d == null || table.tags().isEmpty() ? null : table.tags().clause()
                        .replaceFirst("^ with tags ", ""), storage,
                d == null ? null : bodyHash(catalog, d.bodySql(), d.sources()),
                d == null ? null : String.join(",", new TreeSet<>(d.sources())),
                d != null && d.stale()));
        if (d != null && d.schedule() != null) {
            entries.add(new CatalogEntry(CatalogEntry.SCHEDULE, table.schema(), table.name(), 0,
                    "alter materialized view " + CanonicalDdl.identifier(table.schema()) + "." + CanonicalDdl.identifier(table.name())
                            + " set refresh schedule " + CanonicalDdl.literal(d.schedule().text()),
                    null, null, null, null, null, false));
        }
        for (IndexSchema index : table.constraints().indexes()) {
            if (!index.constraint()) {
                entries.add(new CatalogEntry(CatalogEntry.INDEX, table.schema(), index.name(), 0,
                        CanonicalDdl.index(table, index), null, null, null, null, null, false));
            }
        }
        return entries;
    }

    /**
     * What identifies a derivation (MV-013): its body text and, for each source, the columns the
     * body reads them as (names, types, collations) and their physical key. A backing filled under
     * another definition of a source no longer matches and is refilled.
     */
    static String bodyHash(Catalog catalog, String bodySql, java.util.Collection<String> sources) {
        StringBuilder text = new StringBuilder(bodySql);
        for (String source : new TreeSet<>(sources)) {
            text.append('\u0000').append(source);
            catalog.tableByKey(source).ifPresent(t -> {
                for (ColumnSchema c : t.columns()) {
                    text.append('|').append(c.name()).append(' ').append(c.type()).append(' ').append(c.collation());
                }
                text.append("|key ").append(t.primaryKey());
            });
        }
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest(text.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
