package io.derive.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.derive.engine.api.Result;
import io.derive.engine.api.Row;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;
import java.util.HexFormat;

/**
 * The machine-readable output: exactly one JSON object per statement on its own line, in script
 * order — {@code {"ok":true,"columns":[..],"rows":[[..]]}} for a statement that returns rows,
 * {@code {"ok":true,"changes":N}} for any other, {@code {"ok":false,"error":..,"code":..,
 * "line":L,"column":C}} for a failure. Tools read it line by line, so nothing else goes to this
 * stream; warnings go to the error stream.
 *
 * <p>Values keep their SQL type: integers and numerics as JSON numbers with their exact digits,
 * reals as JSON numbers except NaN and the infinities, which JSON cannot write and so become the
 * strings {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}; blobs as lowercase hex;
 * dates, times and timestamps as ISO-8601 text.
 */
final class JsonLinesOutput implements StatementOutcomes {
    /** Beyond this many digits of scale a numeric is written with an exponent instead of zeros. */
    private static final int MAX_PLAIN_SCALE = 1000;

    private final JsonFactory json = JsonFactory.builder().build();
    private final PrintWriter out;

    JsonLinesOutput(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void succeeded(ScriptStatement statement, Result result) {
        line(g -> {
            g.writeBooleanField("ok", true);
            if (result.columns().isEmpty()) {
                g.writeNumberField("changes", result.updateCount());
                return;
            }
            g.writeArrayFieldStart("columns");
            for (String column : result.columns()) {
                g.writeString(column);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("rows");
            for (Row row : result.rows()) {
                g.writeStartArray();
                for (Object value : row.values()) {
                    writeValue(g, value);
                }
                g.writeEndArray();
            }
            g.writeEndArray();
        });
    }

    @Override
    public void failed(ScriptStatement statement, StatementFailure failure) {
        line(g -> {
            g.writeBooleanField("ok", false);
            g.writeStringField("error", failure.message());
            g.writeStringField("code", failure.code());
            g.writeNumberField("line", failure.line());
            g.writeNumberField("column", failure.column());
        });
    }

    private interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    private void line(Fields fields) {
        try (JsonGenerator g = json.createGenerator(out)) {
            // The generator must not close the shell's output stream along with itself.
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            fields.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the output", e);
        }
        out.println();
        out.flush();
    }

    static void writeValue(JsonGenerator g, Object value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            g.writeNumber(((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            writeReal(g, ((Number) value).doubleValue());
        } else if (value instanceof BigDecimal) {
            BigDecimal numeric = (BigDecimal) value;
            g.writeNumber(Math.abs(numeric.scale()) <= MAX_PLAIN_SCALE ? numeric.toPlainString() : numeric.toString());
        } else if (value instanceof Boolean) {
            g.writeBoolean((Boolean) value);
        } else if (value instanceof byte[]) {
            g.writeString(HexFormat.of().formatHex((byte[]) value));
        } else if (value instanceof TemporalAccessor) {
            g.writeString(iso8601((TemporalAccessor) value));
        } else {
            g.writeString(value.toString());
        }
    }

    private static void writeReal(JsonGenerator g, double real) throws IOException {
        if (Double.isNaN(real)) {
            g.writeString("NaN");
        } else if (Double.isInfinite(real)) {
            g.writeString(real > 0 ? "Infinity" : "-Infinity");
        } else {
            g.writeNumber(real);
        }
    }

    /** Seconds always shown, the fraction only when there is one, {@code T} between date and time. */
    private static String iso8601(TemporalAccessor value) {
        if (value instanceof LocalDateTime) {
            return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(value);
        }
        if (value instanceof LocalTime) {
            return DateTimeFormatter.ISO_LOCAL_TIME.format(value);
        }
        if (value instanceof LocalDate) {
            return DateTimeFormatter.ISO_LOCAL_DATE.format(value);
        }
        return value.toString();
    }
}
