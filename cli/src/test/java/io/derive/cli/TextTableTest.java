package io.derive.cli;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.StatementKind;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TextTableTest {

    private static final List<String> COLUMNS = List.of("n", "label");

    @Test
    void numbersAlignRightAndTextAlignsLeft() {
        Result result = result(new Object[]{5L, "a"}, new Object[]{1234L, "longer"});

        assertThat(TextTable.render(result)).containsExactly(
                "n    | label",
                "-----+-------",
                "   5 | a",
                "1234 | longer");
    }

    @Test
    void nullShowsAsNull() {
        assertThat(TextTable.render(result(new Object[]{null, null}))).last().isEqualTo("NULL | NULL");
    }

    @Test
    void blobShowsAsHexLiteral() {
        assertThat(TextTable.format(new byte[]{0x0a, (byte) 0xff})).isEqualTo("X'0AFF'");
    }

    @Test
    void numericShowsWithoutExponent() {
        assertThat(TextTable.format(new BigDecimal("1E+3"))).isEqualTo("1000");
    }

    @Test
    void emptyResultStillShowsItsHeader() {
        assertThat(TextTable.render(result())).containsExactly("n | label", "--+------");
    }

    private static Result result(Object[]... rows) {
        return new Result(StatementKind.QUERY, COLUMNS, java.util.Arrays.stream(rows).map(v -> new Row(COLUMNS, v)).toList(), 0);
    }
}
