package io.derive.engine.exec.query;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.CanonicalDdl;
import io.derive.engine.schema.ColumnSchema;
import io.derive.engine.schema.IndexSchema;
import io.derive.engine.schema.TableSchema;
import io.derive.engine.schema.ViewSchema;
import io.derive.engine.spi.TableShape;
import io.derive.engine.txn.Transaction;
import io.derive.engine.types.SqlType;

import java.util.ArrayList;
import java.util.List;

/** The rows of {@code schema()} and {@code table_info('t')}, as the transaction sees the catalog. */
final class SchemaIntrospection {
    private SchemaIntrospection() {
    }

    /** Tables (each followed by its declared indexes), then views, in creation order. */
    static List<Object[]> schema(Transaction transaction) {
        List<Object[]> rows = new ArrayList<>();
        for (TableSchema t : transaction.catalog().tables()) {
            String type = t.isMaintained() ? "materialized_view" : "table";
            rows.add(new Object[] {type, t.schema(), t.name(), CanonicalDdl.table(t), t.tags().json()});
            for (IndexSchema index : t.constraints().indexes()) {
                if (!index.constraint()) {
                    rows.add(new Object[] {"index", t.schema(), index.name(), index.sql(), null});
                }
            }
        }
        for (ViewSchema v : transaction.catalog().views()) {
            rows.add(new Object[] {"view", v.schema(), v.name(), CanonicalDdl.view(v), v.tags().json()});
        }
        return rows;
    }

    /** SQLite's {@code pragma table_info}: the declared columns, without a bag's hidden rowid. */
    static List<Object[]> tableInfo(List<Object> arguments, Transaction transaction) {
        Object name = arguments.get(0);
        Object schema = arguments.size() > 1 ? arguments.get(1) : null;
        if (!(name instanceof String) || (schema != null && !(schema instanceof String))) {
            throw new DeriveException(DeriveException.DATA, "table_info() takes a table name and optionally a"
                    + " schema name, as text");
        }
        TableSchema table = transaction.catalog().table((String) schema, (String) name).orElseThrow(() ->
                new DeriveException(DeriveException.UNDEFINED_OBJECT, "no such table: "
                        + (schema == null ? name : schema + "." + name)));
        List<Object[]> rows = new ArrayList<>();
        long cid = 0;
        for (int i = 0; i < table.columns().size(); i++) {
            ColumnSchema c = table.columns().get(i);
            if (c.hidden()) {
                continue;
            }
            rows.add(new Object[] {
                cid++, c.name(), c.type() == SqlType.ANY ? "" : c.type().sqlName(), c.notNull() ? 1L : 0L,
                c.dynamicDefault() != null ? c.dynamicDefault().sql()
                        : c.defaultValue() == null ? null : CanonicalDdl.literal(c.defaultValue()), keyPosition(table, i)
            });
        }
        return rows;
    }

    private static long keyPosition(TableSchema table, int column) {
        if (table.isBag()) {
            return 0;
        }
        List<TableShape.KeyPart> key = table.primaryKey();
        for (int k = 0; k < key.size(); k++) {
            if (key.get(k).column() == column) {
                return k + 1;
            }
        }
        return 0;
    }
}
