package io.derive.cli.slt;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SltParserTest {

    @Test
    void statementRecordsRunToTheBlankLine() {
        List<SltRecord> records = SltParser.parse("f.test", """
                statement ok
                CREATE TABLE t(a INTEGER,
                  b INTEGER)

                statement error
                SELECT nothing
                """);

        assertThat(records).containsExactly(
                new SltRecord.Statement(1, List.of(), false, "CREATE TABLE t(a INTEGER,\n  b INTEGER)"),
                new SltRecord.Statement(5, List.of(), true, "SELECT nothing"));
    }

    @Test
    void queryRecordsCarryTypesSortLabelAndExpectedValues() {
        List<SltRecord> records = SltParser.parse("f.test", """
                query IT rowsort label-7
                SELECT a, b
                  FROM t
                ----
                1
                x
                """);

        assertThat(records).containsExactly(new SltRecord.Query(1, List.of(), "IT", SortMode.ROWSORT, "label-7",
                "SELECT a, b\n  FROM t", new ExpectedResult.Values(List.of("1", "x"))));
    }

    @Test
    void aHashLineIsTheExpectedCountAndHash() {
        SltRecord.Query query = (SltRecord.Query) SltParser.parse("f.test", """
                query I nosort
                SELECT a FROM t
                ----
                30 values hashing to 0123456789abcdef0123456789abcdef
                """).get(0);

        assertThat(query.expected()).isEqualTo(new ExpectedResult.Hashed(30, "0123456789abcdef0123456789abcdef"));
    }

    @Test
    void conditionsWithTrailingCommentsBelongToTheNextRecord() {
        List<SltRecord> records = SltParser.parse("f.test", """
                # a comment
                skipif mysql # not on mysql
                onlyif sqlite
                hash-threshold 8

                onlyif mssql
                halt
                """);

        assertThat(records).containsExactly(
                new SltRecord.HashThreshold(4, List.of(new SltRecord.Condition(false, "mysql"),
                        new SltRecord.Condition(true, "sqlite")), 8),
                new SltRecord.Halt(7, List.of(new SltRecord.Condition(true, "mssql"))));
    }

    @Test
    void anUnknownRecordIsReportedWithItsLine() {
        assertThatThrownBy(() -> SltParser.parse("f.test", "statement ok\nSELECT 1\n\nexplain SELECT 1\n"))
                .isInstanceOf(SltFormatException.class)
                .hasMessage("f.test:4: unknown record 'explain'");
    }
}
