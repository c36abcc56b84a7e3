package io.derive.engine.exec;

import io.derive.engine.exec.query.QueryPlanCache;
import io.derive.engine.exec.query.StatementTextCounters;
import io.derive.engine.schema.Catalog;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.ast.Statement;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The statements a session ran by their text, the most recently used kept, so that an
 * application that runs the same text with new parameters — as an enterprise application's
 * requests do, through the resource adapter's {@code execute(sql, params)} — parses it once and
 * plans a query once per schema, as a prepared statement would: on the memory host a point query
 * by text took eight times as long as the same query prepared (4.8 against 0.6 µs), most of it
 * parsing and planning.
 *
 * <p>What is kept depends on the text alone: the parse, and the plan of a query kept while the
 * catalog it was planned against is the current one ({@link QueryPlanCache}). A text that fails
 * to parse is not kept. Each run is counted as reused or parsed ({@code statement_cache()}).
 * Not thread-safe: a session is used by one thread at a time.
 */
final class StatementCache {
    /** A parsed text and the plan its query last had. */
    record Entry(Statement statement, QueryPlanCache plans) {
    }

    private final Map<String, Entry> entries;
    private final StatementTextCounters counters;
    /** The committed schema when plans were last looked at ({@link #forgetPlansOfEarlierSchemas}). */
    private Catalog committedSchema;

    /**
     * @param capacity how many texts are kept, the least recently used given up first; 0 keeps none
     * @param counters the database's counts of texts reused and parsed
     */
    StatementCache(int capacity, StatementTextCounters counters) {
        this.counters = counters;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * The entry of {@code sql}, parsed now when it is not kept.
     *
     * @throws io.derive.engine.api.DeriveException {@code SYNTAX} when {@code sql} is not one statement
     */
    Entry of(String sql) {
        Entry entry = entries.get(sql);
        if (entry != null) {
            counters.reused();
            return entry;
        }
        entry = new Entry(Parser.parseStatement(sql), new QueryPlanCache());
        counters.parsed();
        entries.put(sql, entry);
        return entry;
    }

    /**
     * Forgets every kept plan once the committed schema is no longer the one the last call saw.
     * A plan holds the schema and the tables it was planned against — a memory-hosted table holds
     * its rows — so a text never run again would otherwise keep a dropped table's rows in memory
     * for as long as the session lives (in an application server, as long as its pooled
     * connection). Schema changes are rare; each costs the texts run after it one planning.
     */
    void forgetPlansOfEarlierSchemas(Catalog committed) {
        if (committed != committedSchema) {
            entries.values().forEach(entry -> entry.plans().forget());
            committedSchema = committed;
        }
    }

    /** How many texts are kept now. */
    int size() {
        return entries.size();
    }
}
