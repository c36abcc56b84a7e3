package io.derive.batch;

import io.derive.engine.api.Result;
import io.derive.engine.api.Row;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/** Converts between JSON and the engine's Java values (see {@link Row} for the mapping). */
final class JsonValues {

    private JsonValues() {
    }

    /** A JSON parameter as the engine expects it: integral numbers as Long, others as Double. */
    static Object toJava(JsonValue value) {
        return switch (value.getValueType()) {
            case NULL -> null;
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case STRING -> ((JsonString) value).getString();
            case NUMBER -> {
                JsonNumber n = (JsonNumber) value;
                if (n.isIntegral()) {
                    BigInteger big = n.bigIntegerValue();
                    yield big.bitLength() < 64 ? (Object) big.longValue() : new BigDecimal(big);
                }
                yield n.doubleValue();
            }
            case ARRAY, OBJECT -> throw new IllegalArgumentException("a parameter must be a scalar, not " + value);
        };
    }

    static Object[] toJava(JsonArray params) {
        List<Object> values = new ArrayList<>(params.size());
        for (JsonValue v : params) {
            values.add(toJava(v));
        }
        return values.toArray();
    }

    static JsonObject toJson(Result result) {
        JsonArrayBuilder columns = Json.createArrayBuilder();
        result.columns().forEach(columns::add);
        JsonArrayBuilder rows = Json.createArrayBuilder();
        for (Row row : result.rows()) {
            JsonArrayBuilder r = Json.createArrayBuilder();
            for (Object v : row.values()) {
                addValue(r, v);
            }
            rows.add(r);
        }
        return Json.createObjectBuilder()
                .add("columns", columns)
                .add("rows", rows)
                .add("updateCount", result.updateCount())
                .build();
    }

    private static void addValue(JsonArrayBuilder array, Object v) {
        if (v == null) {
            array.addNull();
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            array.add(((Number) v).longValue());
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isFinite(d)) {
                array.add(d);
            } else {
                array.add(Double.toString(d)); // JSON has no NaN or infinity
            }
        } else if (v instanceof BigDecimal b) {
            array.add(b);
        } else if (v instanceof Boolean b) {
            array.add(b);
        } else if (v instanceof byte[] bytes) {
            array.add(Base64.getEncoder().encodeToString(bytes));
        } else {
            array.add(v.toString());
        }
    }

    static JsonObject error(String message, String code) {
        return Json.createObjectBuilder().add("error", message == null ? "" : message).add("code", code).build();
    }
}
