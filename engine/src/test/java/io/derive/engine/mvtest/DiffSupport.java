package io.derive.engine.mvtest;

import io.derive.engine.api.PreparedStatement;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the constraint world and the covering twin share: reading a query's rows as a bag from a
 * Derive session or a SQLite connection (each query prepared once, since checks repeat it after
 * every statement), a two-sided diff, and the failure report with the seed to replay and the
 * statement history.
 */
final class DiffSupport {

    private final Map<Session, Map<String, PreparedStatement>> deriveQueries = new HashMap<>();
    private final Map<String, java.sql.PreparedStatement> sqliteQueries = new HashMap<>();

    List<String> derive(Session s, String query) {
        PreparedStatement st = deriveQueries.computeIfAbsent(s, k -> new HashMap<>()).computeIfAbsent(query, s::prepare);
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : st.execute().rows()) {
            rows.add(r.values());
        }
        return BagRows.of(rows, Set.of());
    }

    /** Rows of {@code query} on the one SQLite connection of a run. */
    List<String> sqlite(Connection c, String query) throws SQLException {
        java.sql.PreparedStatement st = sqliteQueries.get(query);
        if (st == null) {
            st = c.prepareStatement(query);
            sqliteQueries.put(query, st);
        }
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet rs = st.executeQuery()) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
        }
        return BagRows.of(rows, Set.of());
    }

    static String diff(List<String> left, List<String> right, String leftName, String rightName) {
        List<String> onlyLeft = new ArrayList<>(left);
        right.forEach(onlyLeft::remove);
        List<String> onlyRight = new ArrayList<>(right);
        left.forEach(onlyRight::remove);
        return "\n  only in " + leftName + ": " + onlyLeft + "\n  only in " + rightName + ": " + onlyRight;
    }

    /** The failure with its replay flags and the statement history (the tail inline, all of it in a file). */
    static String report(String world, long seed, String failure, List<String> history) {
        StringBuilder out = new StringBuilder("world ").append(world).append(", replay with -Dderive.mvdiff.seed=")
                .append(seed).append(" -Dderive.mvdiff.world=").append(world).append('\n').append(failure);
        Path file = Path.of("target", "mvdiff-" + world + "-" + seed + ".sql");
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, history);
            out.append("\nfull history: ").append(file.toAbsolutePath());
        } catch (IOException e) {
            out.append("\n(history file not written: ").append(e.getMessage()).append(')');
        }
        out.append("\nlast statements:");
        history.subList(Math.max(0, history.size() - 40), history.size()).forEach(h -> out.append("\n  ").append(h));
        return out.toString();
    }
}
