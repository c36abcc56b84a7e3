package io.derive.cli;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.StatementKind;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JsonLinesOutputTest {

    private final StringWriter out = new StringWriter();
    private final JsonLinesOutput output = new JsonLinesOutput(new PrintWriter(out));
    private final ScriptStatement statement = Script.of("s", "select 1").statements().get(0);

    @Test
    void rowsAreColumnsAndArraysOfValues() {
        output.succeeded(statement, result(List.of("id", "x"), new Object[]{1L, "a"}, new Object[]{2L, null}));

        assertThat(out.toString()).isEqualTo("{\"ok\":true,\"columns\":[\"id\",\"x\"],\"rows\":[[1,\"a\"],[2,null]]}\n");
    }

    @Test
    void statementWithoutRowsReportsItsChanges() {
        output.succeeded(statement, Result.ofCount(StatementKind.UPDATE, 3));

        assertThat(out.toString()).isEqualTo("{\"ok\":true,\"changes\":3}\n");
    }

    @Test
    void failureCarriesMessageCodeAndPosition() {
        output.failed(statement, new StatementFailure("no such table: t", "42704", 7, 15));

        assertThat(out.toString())
                .isEqualTo("{\"ok\":false,\"error\":\"no such table: t\",\"code\":\"42704\",\"line\":7,\"column\":15}\n");
    }

    @Test
    void realsAreNumbersAndTheirSpecialValuesStrings() {
        assertThat(values(1.5, -0.25, 1e300, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY))
                .isEqualTo("[1.5,-0.25,1.0E300,\"NaN\",\"Infinity\",\"-Infinity\"]");
    }

    @Test
    void integersAreJsonIntegers() {
        assertThat(values(0L, -7L, Long.MAX_VALUE)).isEqualTo("[0,-7,9223372036854775807]");
    }

    @Test
    void numericsKeepTheirExactDigits() {
        assertThat(values(new BigDecimal("12.50"), new BigDecimal("1E+3"), new BigDecimal("123456789012345678901234567890.000001")))
                .isEqualTo("[12.50,1000,123456789012345678901234567890.000001]");
    }

    @Test
    void textIsAnEscapedString() {
        assertThat(values("a\"b\\c\nd\te", "")).isEqualTo("[\"a\\\"b\\\\c\\nd\\te\",\"\"]");
    }

    @Test
    void booleansAndNullAreJsonLiterals() {
        assertThat(values(true, false, null)).isEqualTo("[true,false,null]");
    }

    @Test
    void blobIsLowercaseHex() {
        assertThat(values(new byte[]{0x0a, (byte) 0xff}, new byte[0])).isEqualTo("[\"0aff\",\"\"]");
    }

    @Test
    void temporalValuesAreIso8601Text() {
        assertThat(values(LocalDate.of(2024, 1, 2), LocalTime.of(3, 4), LocalDateTime.of(2024, 1, 2, 3, 4, 5, 600_000_000)))
                .isEqualTo("[\"2024-01-02\",\"03:04:00\",\"2024-01-02T03:04:05.6\"]");
    }

    @Test
    void everyStatementIsOneLineEvenWithNewlinesInValues() {
        output.succeeded(statement, result(List.of("t"), new Object[]{"two\nlines"}));
        output.succeeded(statement, Result.empty(StatementKind.DDL));

        assertThat(out.toString()).hasLineCount(2).endsWith("\n");
    }

    private String values(Object... values) {
        List<String> columns = Arrays.stream(values).map(v -> "c").toList();
        output.succeeded(statement, result(columns, values));
        String line = out.toString();
        return line.substring(line.indexOf("\"rows\":[") + 8, line.length() - 3);
    }

    private static Result result(List<String> columns, Object[]... rows) {
        return new Result(StatementKind.QUERY, columns, Arrays.stream(rows).map(v -> new Row(columns, v)).toList(), 0);
    }
}
