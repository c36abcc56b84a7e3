package io.derive.memory;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random writes against a source with a per-row MV: after every statement the MV equals a fresh
 * evaluation of its body, and that equals what SQLite returns for the same body on the same data.
 */
class PerRowMaintenanceOracleTest {
    private static final String BODY = "select id, grp, qty * 2 as dbl from items where qty >= 3 and grp <> 'z'";
    private static final String[] GROUPS = {"a", "b", "z", null};

    @Test
    void randomWritesKeepTheViewEqualToItsBodyAndToSqlite() throws SQLException {
        Random random = new Random(7);
        try (Database db = Derive.open(DatabaseConfig.named("oracle"));
             Session s = db.openSession();
             Connection sqlite = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            String ddl = "create table items (id integer primary key, grp text, qty integer)";
            s.execute(ddl);
            sqlite.createStatement().execute(ddl);
            s.execute("create materialized view doubled as " + BODY);
            for (int step = 0; step < 400; step++) {
                long id = random.nextInt(40);
                String grp = GROUPS[random.nextInt(GROUPS.length)];
                long qty = random.nextInt(8);
                String sql;
                Object[] params;
                switch (random.nextInt(4)) {
                    case 0, 1 -> {
                        sql = "insert into items values (?, ?, ?)";
                        params = new Object[] {id, grp, qty};
                    }
                    case 2 -> {
                        sql = "update items set qty = qty + ?, grp = ? where id = ?";
                        params = new Object[] {qty - 4, grp, id};
                    }
                    default -> {
                        sql = "delete from items where id = ?";
                        params = new Object[] {id};
                    }
                }
                boolean derive = runDerive(s, sql, params);
                boolean oracle = runSqlite(sqlite, sql, params);
                assertThat(derive).as("statement %s %s succeeds on both or neither", sql, java.util.Arrays.toString(params)).isEqualTo(oracle);
                List<List<Object>> view = derive(s, "select * from doubled order by id");
                assertThat(view).as("step %d: MV equals its body", step).isEqualTo(derive(s, BODY + " order by id"));
                assertThat(view).as("step %d: MV equals SQLite's body", step).isEqualTo(sqlite(sqlite, BODY + " order by id"));
            }
        }
    }

    private static boolean runDerive(Session s, String sql, Object[] params) {
        try {
            s.execute(sql, params);
            return true;
        } catch (io.derive.engine.api.DeriveException e) {
            return false;
        }
    }

    private static boolean runSqlite(Connection c, String sql, Object[] params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (e.getMessage().contains("constraint")) {
                return false;
            }
            throw e;
        }
    }

    private static List<List<Object>> derive(Session s, String query) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : s.execute(query).rows()) {
            rows.add(r.values());
        }
        return rows;
    }

    private static List<List<Object>> sqlite(Connection c, String query) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet rs = c.createStatement().executeQuery(query)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    row.add(v instanceof Integer x ? (Object) x.longValue() : v);
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
