package io.derive.engine.mvtest;

import java.util.Set;

/**
 * One materialized-view body the differential test keeps under random writes.
 *
 * @param name          the MV's name (also the name of the SQLite view that mirrors it)
 * @param world         the group of shapes that share one database; a chain lives in one world
 * @param body          the body as Derive spells it
 * @param sqliteBody    the same body in SQLite's dialect, or {@code null} when SQLite cannot run it
 * @param listColumns   output columns holding a {@code group_concat}, whose element order SQL
 *                      leaves open: they are compared as sorted lists
 */
public record MvShape(String name, String world, String body, String sqliteBody, Set<Integer> listColumns) {

    static MvShape both(String world, String name, String body) {
        return new MvShape(name, world, body, body, Set.of());
    }

    MvShape withListColumn(int column) {
        return new MvShape(name, world, body, sqliteBody, Set.of(column));
    }
}
