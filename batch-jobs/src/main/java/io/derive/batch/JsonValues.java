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
import jakarta.json.JsonObjectBuilder;
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
        array.add(value(v));
    }

    /** An engine value as JSON. */
    static JsonValue value(Object v) {
        if (v == null) {
            return JsonValue.NULL;
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return Json.createValue(((Number) v).longValue());
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            // JSON has no NaN or infinity
            return Double.isFinite(d) ? Json.createValue(d) : Json.createValue(Double.toString(d));
        } else if (v instanceof BigDecimal b) {
            return Json.createValue(b);
        } else if (v instanceof Boolean b) {
            return b ? JsonValue.TRUE : JsonValue.FALSE;
        } else if (v instanceof byte[] bytes) {
            return Json.createValue(Base64.getEncoder().encodeToString(bytes));
        }
        return Json.createValue(v.toString());
    }

    /** A result's rows as JSON objects, each member named by its column. */
    static JsonArray objects(Result result) {
        JsonArrayBuilder rows = Json.createArrayBuilder();
        for (Row row : result.rows()) {
            JsonObjectBuilder object = Json.createObjectBuilder();
            for (int i = 0; i < result.columns().size(); i++) {
                object.add(result.columns().get(i), value(row.values().get(i)));
            }
            rows.add(object);
        }
        return rows.build();
    }

    /** Adds {@code value} to {@code json} as {@code name}, or JSON null when it is null. */
    static void addNullable(jakarta.json.JsonObjectBuilder json, String name, String value) {
        if (value == null) {
            json.addNull(name);
        } else {
            json.add(name, value);
        }
    }

    static JsonObject error(String message, String code) {
        return Json.createObjectBuilder().add("error", message == null ? "" : message).add("code", code).build();
    }
}
