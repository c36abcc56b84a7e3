package io.derive.engine.scenario.differential;

import io.derive.engine.api.Session;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A seeded random schema and its rows: tables {@code t0..tN}, each with an integer primary key
 * {@code id} and a few integer, real and text columns {@code c1..}, about 30% NULLs, and two
 * {@linkplain #views views} over each. Values come
 * from small domains so joins and groups meet, and reals are exact binary fractions so sums do
 * not depend on evaluation order.
 */
public final class RandomDatabase {
    private static final double NULL_RATE = 0.3;
    private static final String[] TEXTS = {"a", "b", "c", "ab", "ba", "A", "B", "abc", "", "zz"};
    private static final double[] REALS = {-2.5, -1.0, 0.0, 0.5, 1.25, 2.0, 3.0, 7.75};

    /** A generated table: its name and non-key column types. */
    public record Table(String name, List<ColumnType> columns, List<Object[]> rows) {
        public String column(int i) {
            return "c" + (i + 1);
        }
    }

    private final List<Table> tables;

    public RandomDatabase(long seed) {
        Random random = new Random(seed);
        int count = 3;
        List<Table> generated = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            List<ColumnType> columns = new ArrayList<>();
            // At least one integer and one text column, so every pair of tables has comparable columns.
            columns.add(ColumnType.INT);
            columns.add(ColumnType.TEXT);
            int extra = random.nextInt(3);
            for (int i = 0; i < extra; i++) {
                columns.add(ColumnType.values()[random.nextInt(3)]);
            }
            Collections.shuffle(columns, random);
            int rowCount = random.nextInt(25);
            List<Object[]> rows = new ArrayList<>();
            for (int r = 0; r < rowCount; r++) {
                Object[] row = new Object[columns.size() + 1];
                row[0] = (long) r + 1;
                for (int c = 0; c < columns.size(); c++) {
                    row[c + 1] = random.nextDouble() < NULL_RATE ? null : value(columns.get(c), random);
                }
                rows.add(row);
            }
            generated.add(new Table("t" + t, List.copyOf(columns), List.copyOf(rows)));
        }
        this.tables = List.copyOf(generated);
    }

    static Object value(ColumnType type, Random random) {
        if (type == ColumnType.INT) {
            return (long) (random.nextInt(12) - 3);
        }
        if (type == ColumnType.REAL) {
            return REALS[random.nextInt(REALS.length)];
        }
        return TEXTS[random.nextInt(TEXTS.length)];
    }

    public List<Table> tables() {
        return tables;
    }

    public String ddl(Table table, boolean forDerby) {
        StringBuilder ddl = new StringBuilder("create table " + table.name() + " (id "
                + (forDerby ? "bigint" : "integer") + " primary key");
        for (int i = 0; i < table.columns().size(); i++) {
            ddl.append(", ").append(table.column(i)).append(' ').append(table.columns().get(i).ddl(forDerby));
        }
        return ddl.append(')').toString();
    }

    /**
     * The views over a table: {@code tN_rows}, its rows past the first two with every column,
     * and {@code tN_groups}, its rows counted and their greatest key per value of {@code c1}.
     */
    public List<String> views(Table table) {
        return List.of("create view " + table.name() + "_rows as select * from " + table.name() + " where id > 2",
                "create view " + table.name() + "_groups as select c1, count(*) as n, max(id) as top from "
                        + table.name() + " group by c1");
    }

    public void load(Session derive) {
        for (Table table : tables) {
            derive.execute(ddl(table, false));
            String insert = insertSql(table);
            for (Object[] row : table.rows()) {
                derive.execute(insert, row);
            }
            views(table).forEach(derive::execute);
        }
    }

    public void load(Connection jdbc, boolean forDerby) throws SQLException {
        for (Table table : tables) {
            try (Statement s = jdbc.createStatement()) {
                s.execute(ddl(table, forDerby));
            }
            try (PreparedStatement insert = jdbc.prepareStatement(insertSql(table))) {
                for (Object[] row : table.rows()) {
                    for (int i = 0; i < row.length; i++) {
                        if (row[i] == null) {
                            ColumnType type = table.columns().get(i - 1);
                            insert.setNull(i + 1, type == ColumnType.INT ? Types.BIGINT
                                    : type == ColumnType.REAL ? Types.DOUBLE : Types.VARCHAR);
                        } else {
                            insert.setObject(i + 1, row[i]);
                        }
                    }
                    insert.executeUpdate();
                }
            }
            try (Statement s = jdbc.createStatement()) {
                for (String view : views(table)) {
                    s.execute(view);
                }
            }
        }
    }

    private static String insertSql(Table table) {
        return "insert into " + table.name() + " values (?" + ", ?".repeat(table.columns().size()) + ")";
    }

    /** A readable dump for a failure report. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        for (Table table : tables) {
            out.append(ddl(table, false)).append(";\n");
            for (Object[] row : table.rows()) {
                out.append("  ").append(java.util.Arrays.toString(row)).append('\n');
            }
        }
        return out.toString();
    }
}
