package io.derive.cli.slt;

import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;
import io.derive.engine.api.Session;
import io.derive.engine.sql.Parser;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Runs statement and query records of one file on a session and says whether each got what it
 * expects. Holds the file's state: the hash threshold and the result hash of each label.
 */
final class RecordCheck {
    private static final int SHOWN_VALUES = 12;
    /** SQLSTATE class 22: errors raised while values are computed, SQLite's run-time errors. */
    private static final String DATA_EXCEPTION_CLASS = "22";

    private final Session session;
    private final Map<String, LabelledResult> labels = new HashMap<>();
    private int hashThreshold;

    private record LabelledResult(int line, String md5) {
    }

    RecordCheck(Session session) {
        this.session = session;
    }

    void hashThreshold(int threshold) {
        hashThreshold = threshold;
    }

    /** Why {@code record} failed, or {@code null} when it passed. */
    String check(SltRecord record) {
        if (record instanceof SltRecord.Statement s) {
            return statement(s);
        }
        return query((SltRecord.Query) record);
    }

    private String statement(SltRecord.Statement s) {
        try {
            // As the reference runs a statement record: each of its statements in turn, up to the first failure.
            for (String statement : Parser.splitScript(s.sql())) {
                session.execute(statement);
            }
        } catch (DeriveException e) {
            return s.expectError() ? null : "statement failed: " + e.getMessage();
        } catch (RuntimeException e) {
            return "internal error (not a DeriveException): " + e;
        }
        return s.expectError() ? "statement succeeded, but an error was expected" : null;
    }

    private String query(SltRecord.Query q) {
        Result result;
        try {
            result = session.execute(q.sql());
        } catch (DeriveException e) {
            if (!e.code().startsWith(DATA_EXCEPTION_CLASS)) {
                return "query failed: " + e.getMessage();
            }
            // The reference reads a query's rows until SQLite stops stepping it, so a query that fails
            // while computing rows (not while being compiled) yields the rows before the error: here none.
            return compare(q.expected(), List.of(), md5(List.of()));
        } catch (RuntimeException e) {
            return "internal error (not a DeriveException): " + e;
        }
        if (result.columns().size() != q.types().length()) {
            return "the query has " + result.columns().size() + " columns, the record expects " + q.types().length();
        }
        List<List<String>> rows = new ArrayList<>();
        for (Row row : result.rows()) {
            List<String> values = new ArrayList<>(row.size());
            for (int i = 0; i < row.size(); i++) {
                values.add(ValueFormat.format(row.get(i), q.types().charAt(i)));
            }
            rows.add(values);
        }
        List<String> values = q.sort().flatten(rows);
        String md5 = md5(values);
        String mismatch = compare(q.expected(), values, md5);
        if (mismatch != null) {
            return mismatch;
        }
        if (q.label() != null) {
            LabelledResult earlier = labels.putIfAbsent(q.label(), new LabelledResult(q.line(), md5));
            if (earlier != null && !earlier.md5.equals(md5)) {
                return "label " + q.label() + ": the result differs from that of line " + earlier.line;
            }
        }
        return null;
    }

    private String compare(ExpectedResult expected, List<String> values, String md5) {
        if (expected instanceof ExpectedResult.Hashed h) {
            if (h.count() == values.size() && h.md5().equals(md5)) {
                return null;
            }
            return "expected " + h.count() + " values hashing to " + h.md5() + ", got " + values.size()
                    + " values hashing to " + md5 + shown(values);
        }
        List<String> lines = ((ExpectedResult.Values) expected).lines();
        if (hashThreshold > 0 && values.size() > hashThreshold) {
            // Over the threshold the reference compares the hash line, which listed values never equal.
            return "expected " + shownLines(lines) + ", got " + values.size() + " values hashing to " + md5;
        }
        return lines.equals(values) ? null : "expected " + shownLines(lines) + ", got" + shown(values);
    }

    private static String shown(List<String> values) {
        return " " + shownLines(values);
    }

    private static String shownLines(List<String> values) {
        List<String> head = values.subList(0, Math.min(values.size(), SHOWN_VALUES));
        String more = values.size() > SHOWN_VALUES ? ", … (" + values.size() + " values)" : "";
        return "[" + String.join(", ", head) + more + "]";
    }

    /** The MD5 of the values, each followed by a newline, in hex: the reference's result hash. */
    static String md5(List<String> values) {
        try {
            MessageDigest digest = MessageDigest.getInstance("MD5");
            for (String v : values) {
                digest.update(v.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) '\n');
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
    }
}
