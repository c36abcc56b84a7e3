package io.derive.engine.contract;

import io.derive.engine.api.DeriveException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The scalar functions and casts of semantics §1, each expression checked against SQLite itself
 * (the oracle is SQLite over JDBC, which the host module puts on the test class path).
 */
public abstract class ScalarFunctionContract extends HostContractTest {
    private Connection sqlite;

    @BeforeEach
    void openSqlite() throws SQLException {
        sqlite = DriverManager.getConnection("jdbc:sqlite::memory:");
    }

    @AfterEach
    void closeSqlite() throws SQLException {
        sqlite.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "length('héllo')", "length(x'0102')", "length(123.5)", "length('')", "length(null)",
            "lower('ÄBC')", "upper('äbc')", "lower(x'41')", "upper(null)",
            "substr('hello', 2)", "substr('hello', 2, 3)", "substr('hello', 0, 2)", "substr('hello', -2)",
            "substr('hello', -10, 3)", "substr('hello', 2, -1)", "substr('hello', 4, -10)", "substr('hello', 0)",
            "substr(x'010203', 2)", "substring('hello', 2, 2)", "substr('hello', null)", "substr(12345, 2, 2)",
            "substr('hello', 9223372036854775807)", "substr('hello', -9223372036854775808, 9223372036854775807)",
            "trim('  hi  ')", "ltrim('  hi  ')", "rtrim('  hi  ')", "trim('xxhixx', 'x')", "trim('abc', '')",
            "ltrim('abcba', 'ab')", "rtrim('abc  ', null)", "trim(null)", "trim('\thi\t')",
            "replace('aaa', 'a', 'bb')", "replace('aaa', 'a', '')", "replace('abc', '', 'x')", "replace('aXa', 'X', 12)",
            "replace(null, 'a', 'b')", "replace(123123, 2, 9)",
            "instr('hello', 'l')", "instr('hello', 'z')", "instr('abc', '')", "instr(x'0102', x'02')", "instr(12345, 34)",
            "instr('héllo', 'l')", "instr(null, 'a')",
            "hex('abc')", "hex(x'0aff')", "hex(12.5)", "hex(null)", "hex('')",
            "char(65, 66, 67)", "char(65, 128512, 66)", "char()", "char(0x10FFFF)",
            "unicode('A')", "unicode('é')", "unicode('')", "unicode(x'41')", "unicode(null)",
            "like('a%', 'ABC')", "like('a_c', 'abc')", "glob('a*', 'Abc')", "glob('a*', 'abc')", "like(null, 'a')"})
    void stringFunctionsAgreeWithSqlite(String expression) {
        assertAgreesWithSqlite(expression);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "abs(-5)", "abs(-2.5)", "abs('-3x')", "abs('')", "abs(x'01')", "abs(null)", "abs(9223372036854775807)",
            "round(2.5)", "round(-2.5)", "round(2.345, 2)", "round(1.005, 2)", "round(123.456, -1)", "round(5)",
            "round('x')", "round(1e300, 2)", "round(-0.4)", "round(2.5, 1000)", "round(9223372036854775807)",
            "round(0.5e-20, 30)", "round(null)", "round(1.5, null)",
            "sign(-7)", "sign(0)", "sign(2.5)", "sign('3')", "sign(' 3 ')", "sign('-3x')", "sign('abc')", "sign(x'01')",
            "sign(null)",
            "min(3, 1, 2)", "max(3, 1, 2)", "max(1, 2.5)", "min(1, null, 3)", "max(1, 'a', x'00')", "min('b', 'a')",
            "coalesce(null, null, 3)", "coalesce(null, null)", "ifnull(null, 'x')", "ifnull(1, 2)",
            "nullif(1, 1)", "nullif(1, 1.0)", "nullif(1, 2)", "nullif(null, 1)",
            "iif(1, 'a', 'b')", "iif(0, 'a', 'b')", "iif(null, 'a', 'b')", "iif(0, 1)",
            "typeof(1)", "typeof(1.5)", "typeof('x')", "typeof(x'00')", "typeof(null)",
            "quote(12.5)", "quote(1e20)", "quote('it''s')", "quote(x'0a')", "quote(null)", "quote(7)",
            "likely(3)", "unlikely('x')", "zeroblob(3)", "zeroblob(-1)", "length(randomblob(8))",
            "length(randomblob(-5))", "length(randomblob(null))", "zeroblob(null)", "typeof(random())"})
    void numericAndValueFunctionsAgreeWithSqlite(String expression) {
        assertAgreesWithSqlite(expression);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "printf('%d|%i', 42, -7)", "printf('%5d|%-5d|%05d', 42, 42, -42)", "printf('%+d % d', 5, 5)",
            "printf('%,d', 1234567)", "printf('%.3d', 7)", "printf('%*d|', 5, 1)", "printf('%d', '12abc')",
            "printf('%d', 3.9)", "printf('%d', 1e30)", "printf('%d')", "printf('%x %X %o', 255, 255, 8)",
            "printf('%x', -1)", "printf('%#x %#o', 255, 8)", "printf('%f', 3.14159)", "printf('%.2f', 1.005)",
            "printf('%.2f', 2.345)", "printf('%.1f', 0.25)", "printf('%.0f', 2.5)", "printf('%f', 1e20)",
            "printf('%.20f', 0.1)", "printf('%.*f', 2, 3.14159)", "printf('%10.3f|', -3.14159)",
            "printf('%e', 12345.678)", "printf('%.3e', 0)", "printf('%E', 0.000123)",
            "printf('%g', 100000)", "printf('%g', 1000000)", "printf('%g', 0.0001)", "printf('%g', 1.5e-5)",
            "printf('%#g', 1.5)", "printf('%g', 123456789)", "printf('%G', 1e-10)", "printf('%.15g', 0.1)",
            "printf('%g', 0)", "printf('%s', 'abc')", "printf('%5.2s|', 'abcdef')", "printf('%-6s|', 'ab')",
            "printf('%s', 1.5)", "printf('%s %s', x'41', 12)", "printf('%s')", "printf('%q', 'it''s')",
            "printf('%Q', 'it''s')", "printf('%Q', null)", "printf('%q', null)", "printf('%c', 'hello')",
            "printf('%3c|', 'x')", "printf('100%%')", "printf('%5%|')", "printf('abc%')", "printf('%y %d', 1)",
            "printf(null)", "printf('plain')", "format('%5.1f', 3.14159)", "printf('%-+6d|', 3)", "printf('%e', 1e300 * 1e10)"})
    void printfAgreesWithSqlite(String expression) {
        assertAgreesWithSqlite(expression);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "date('2024-01-31')", "date('2024-01-31', '+1 month')", "date('2024-03-31', '-1 month')",
            "date('2024-01-31', '+1 month', 'floor')", "date('2024-02-29', '+1 year')", "date('2024-02-30')",
            "date('2024-13-01')", "date('garbage')", "date('')", "date(null)", "date(2460000.5)", "date('2460000.5')",
            "date('2024-02-15', 'start of month')", "date('2024-02-15', 'start of year')",
            "date('2024-02-15', 'weekday 0')", "date('2024-02-18', 'weekday 0')", "date('2024-02-15', 'weekday 7')",
            "date('2024-01-01', 'bogus')", "date('2024-01-01', '+1 fortnight')", "date('2024-01-01', '+1 DAY')",
            "date('10000-01-01')", "date(-1)", "date('2024-01-01', '+5373485 days')",
            "time('10:20')", "time('24:00:00')", "time('12:00', '+13 hours')", "time('10:20:30.5', 'subsec')",
            "datetime('2024-01-31 10:20:30.123')", "datetime('2024-01-31T10:20:30')", "datetime('2024-01-01T10:00:00Z')",
            "datetime('2024-01-01 10:00:00+02:00')", "datetime('2024-01-01 10:00:00 -05:30')",
            "datetime('2024-01-01 10:00:60')", "datetime('2024-02-15 13:14', 'start of day')",
            "datetime('2024-02-15', '+1.5 days')", "datetime('2024-02-15', '+90 minutes', '-30 seconds')",
            "datetime('2024-01-01', '+01:30')", "datetime('2024-01-01', '-0001-02-03')",
            "datetime('2024-01-01', '+1.5 months')", "datetime(0, 'unixepoch')", "datetime(1700000000.5, 'unixepoch')",
            "datetime(1700000000, 'auto')", "datetime('2024-01-01', 'unixepoch')", "datetime(1e20)",
            "datetime('2024-01-01 10:00:00.25', 'subsec')", "datetime('2024-01-01', '+1 days', null)",
            "julianday('2000-01-01 12:00')", "julianday('2024-01-31 10:20:30')", "julianday(null)",
            "unixepoch('2024-01-01')", "unixepoch('1970-01-01 00:00:01')", "unixepoch('2024-01-01 00:00:00.5', 'subsec')",
            "unixepoch('1969-12-31 23:59:59')",
            "strftime('%Y-%m-%d %H:%M:%f', '2024-01-31 10:20:30.1237')", "strftime('%j %w %u %W %U %s %J', '2024-03-10 12:00')",
            "strftime('%H:%M %p %I %k %l', '2024-03-10 15:04')", "strftime('%e|%G|%V|%g', '2024-01-01')",
            "strftime('%F %T %R %P', '2023-12-31 00:05')", "strftime('%V %G', '2021-01-03')", "strftime('%q', '2024-01-01')",
            "strftime(null, '2024-01-01')", "strftime('%d', null)", "strftime('100%%', '2024-01-01')",
            "typeof(date())", "typeof(julianday('now'))", "length(datetime('now'))"})
    void dateFunctionsAgreeWithSqlite(String expression) {
        assertAgreesWithSqlite(expression);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "cast('12abc' as integer)", "cast('1e3' as integer)", "cast(' 12.9x' as integer)", "cast(1e20 as integer)",
            "cast(-1e20 as integer)", "cast(2.5 as integer)", "cast(-2.5 as integer)", "cast('0x10' as integer)",
            "cast('+5' as integer)", "cast('  -7  ' as integer)", "cast('9223372036854775808' as integer)",
            "cast('-9223372036854775809' as integer)", "cast(x'3132' as integer)", "cast('abc' as integer)",
            "cast(x'41' as text)", "cast(1e20 as text)", "cast(0.1 + 0.2 as text)", "cast(1.0 as text)",
            "cast(123456789012345678.0 as text)", "cast(1e15 as text)", "cast(1e16 as text)", "cast(1e17 as text)",
            "cast(0.00001234 as text)", "cast(-1.5e300 as text)", "cast(12 as text)",
            "cast('abc' as real)", "cast('.5' as real)", "cast('5.' as real)", "cast('1e400' as real)", "cast(x'3132' as real)",
            "cast(12 as blob)", "cast('ab' as blob)", "cast(null as integer)", "1e-5 || ''", "0.1 + 0.2 || ''"})
    void castsAgreeWithSqlite(String expression) {
        assertAgreesWithSqlite(expression);
    }

    @Test
    void aWrongArgumentCountIsSited() {
        assertThatThrownBy(() -> session.execute("select 1,\n  substr('x')"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("wrong number of arguments to function substr() at 2:3");
        assertThatThrownBy(() -> session.execute("select round(1, 2, 3)"))
                .hasMessageContaining("wrong number of arguments to function round()");
    }

    @Test
    void anUnknownFunctionIsSited() {
        assertThatThrownBy(() -> session.execute("select nosuch(1)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("no such function: nosuch at 1:8");
    }

    @Test
    void minAndMaxWithOneArgumentAreNotScalarCalls() {
        script("""
                create table t (k integer primary key, v integer);
                insert into t values (1, 5), (2, 3)
                """);
        try {
            assertThat(rows("select min(v), max(v) from t")).containsExactly(row(3L, 5L));
        } catch (DeriveException aggregatesNotYetAvailable) {
            assertThat(aggregatesNotYetAvailable.getMessage()).doesNotContain("wrong number of arguments");
        }
        assertThat(rows("select k, max(v, 4) from t order by k")).containsExactly(row(1L, 5L), row(2L, 4L));
    }

    @Test
    void absOfTheSmallestIntegerIsAnOverflowError() {
        assertThatThrownBy(() -> session.execute("select abs(-9223372036854775807 - 1)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("integer overflow");
    }

    @Test
    void aBlobTooBigIsRefused() {
        assertThatThrownBy(() -> session.execute("select zeroblob(9223372036854775807)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("string or blob too big");
        assertThatThrownBy(() -> session.execute("select randomblob(1e18)"))
                .hasMessageContaining("string or blob too big");
    }

    @Test
    void currentDateTimeKeywordsReadTheClock() {
        List<List<Object>> now = rows("select current_date, current_time, current_timestamp, date('now'), datetime('now')");
        List<Object> r = now.get(0);
        assertThat((String) r.get(0)).matches("\\d{4}-\\d{2}-\\d{2}");
        assertThat((String) r.get(1)).matches("\\d{2}:\\d{2}:\\d{2}");
        assertThat((String) r.get(2)).startsWith((String) r.get(0)).hasSize(19);
        assertThat(r.get(3)).isEqualTo(r.get(0));
    }

    @Test
    void onlyCallsThatReadTheClockOrRandomnessAreNonDeterministic() {
        script("""
                create table t (k integer primary key, d text);
                insert into t values (1, '2024-01-31');
                create materialized view m as select k, date(d, '+1 day') nd, printf('%05d', k) p from t
                """);
        assertThat(rows("select nd, p from m")).containsExactly(row("2024-02-01", "00001"));
        for (String body : new String[] {"date('now')", "datetime()", "current_timestamp", "random()", "hex(randomblob(4))",
                "strftime('%Y')", "julianday(d, 'now')"}) {
            assertThatThrownBy(() -> session.execute("create materialized view n as select k, " + body + " c from t"))
                    .as(body)
                    .hasMessageContaining("non-deterministic expression column 'c'");
        }
    }

    @Test
    void aStoredResultKeepsEveryValueTheFunctionReturns() {
        script("""
                create table t (k integer primary key, a integer, s text, b blob);
                insert into t values (1, null, '-3', x'0102'), (2, 1, 'x', x'03');
                create materialized view m as
                  select k, coalesce(a, 'none') c, max(a, 2.5) x, abs(s) y, iif(a, 'yes', 'no') z, substr(b, 2) w from t
                """);
        assertThat(rows("select c, x, y, z, hex(w) from m order by k"))
                .containsExactly(row("none", null, 3.0, "no", "02"), row(1L, 2.5, 0.0, "yes", ""));
    }

    @Test
    void randomValuesDiffer() {
        List<List<Object>> r = rows("select random(), random(), hex(randomblob(16)), hex(randomblob(16))");
        assertThat(r.get(0).get(0)).isNotEqualTo(r.get(0).get(1));
        assertThat(r.get(0).get(2)).isNotEqualTo(r.get(0).get(3));
    }

    @Test
    void noFunctionThrowsAnythingButADeriveErrorOnAnyInput() {
        String[] values = {"null", "''", "x''", "x'00ff'", "9223372036854775807", "-9223372036854775808", "1e308", "-1e308",
                "-5", "'abc'", "'2024-01-31'", "'%'"};
        String[] few = {"null", "''", "-5", "9223372036854775807", "x'00ff'", "2.5", "'%d%s%'"};
        String[][] functions = {
                {"length", "1"}, {"lower", "1"}, {"upper", "1"}, {"substr", "2", "3"}, {"trim", "1", "2"},
                {"ltrim", "2"}, {"rtrim", "2"}, {"replace", "3"}, {"instr", "2"}, {"hex", "1"}, {"char", "1", "2"},
                {"unicode", "1"}, {"like", "2"}, {"glob", "2"}, {"abs", "1"}, {"round", "1", "2"}, {"sign", "1"},
                {"min", "2"}, {"max", "3"}, {"coalesce", "2"}, {"ifnull", "2"}, {"nullif", "2"}, {"iif", "3"},
                {"typeof", "1"}, {"quote", "1"}, {"likely", "1"}, {"zeroblob", "1"}, {"randomblob", "1"},
                {"printf", "1", "2", "3"}, {"format", "2"}, {"date", "1", "2"}, {"time", "2"}, {"datetime", "1", "3"},
                {"julianday", "2"}, {"unixepoch", "2"}, {"strftime", "2", "3"}};
        List<String> unexpected = new ArrayList<>();
        for (String[] f : functions) {
            for (int k = 1; k < f.length; k++) {
                int arity = Integer.parseInt(f[k]);
                for (String first : values) {
                    for (String rest : arity == 1 ? new String[] {""} : few) {
                        for (String last : arity < 3 ? new String[] {""} : few) {
                            StringBuilder call = new StringBuilder(f[0]).append('(').append(first);
                            if (arity >= 2) {
                                call.append(", ").append(rest);
                            }
                            if (arity >= 3) {
                                call.append(", ").append(last);
                            }
                            String sql = "select " + call.append(')');
                            try {
                                session.execute(sql);
                            } catch (DeriveException e) {
                                if (e.code().equals(DeriveException.INTERNAL) || e.getCause() != null) {
                                    unexpected.add(sql + " -> " + e.getMessage());
                                }
                            } catch (RuntimeException | OutOfMemoryError e) {
                                unexpected.add(sql + " -> " + e);
                            }
                        }
                    }
                }
            }
        }
        assertThat(unexpected).isEmpty();
    }

    /** Evaluates {@code select expression} here and in SQLite and requires the same value of the same type. */
    protected void assertAgreesWithSqlite(String expression) {
        Object expected = sqliteValue(expression);
        Object actual = rows("select " + expression).get(0).get(0);
        assertThat(describe(actual)).as(expression).isEqualTo(describe(expected));
    }

    private Object sqliteValue(String expression) {
        try (Statement s = sqlite.createStatement(); ResultSet r = s.executeQuery("select " + expression)) {
            r.next();
            Object v = r.getObject(1);
            return v instanceof Integer i ? (Object) i.longValue() : v;
        } catch (SQLException e) {
            throw new AssertionError("SQLite cannot evaluate " + expression, e);
        }
    }

    private static String describe(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof byte[] b) {
            return "blob X'" + HexFormat.of().formatHex(b) + "'";
        }
        return v.getClass().getSimpleName() + " " + v;
    }
}
