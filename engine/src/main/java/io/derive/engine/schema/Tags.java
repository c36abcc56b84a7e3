package io.derive.engine.schema;

import io.derive.engine.sql.ast.Statement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tags of a table, view or materialized view (semantics §2): metadata that no query or
 * maintenance reads. Each value is the literal it was written as, of its type: a {@code String},
 * a {@code Long}, a finite {@code Double}, a {@code Boolean} or null (the parser admits no other);
 * {@link #json} shows it as JSON of that type and {@link #clause} writes it back as that literal.
 *
 * @param values the tags in the order their keys were first added; keys compare case-sensitively
 */
public record Tags(Map<String, Object> values) {

    /** No tags. */
    public static final Tags NONE = new Tags(Map.of());

    public Tags {
        // LinkedHashMap, not Map.copyOf: a k = null tag has a null value
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** The tags of a {@code with tags (…)} list, in its order. */
    public static Tags of(List<Statement.Tag> tags) {
        return NONE.with(tags);
    }

    /** These tags with {@code tags} added, a key already here keeping its place and taking the new value. */
    public Tags with(List<Statement.Tag> tags) {
        Map<String, Object> next = new LinkedHashMap<>(values);
        tags.forEach(t -> next.put(t.key(), t.value()));
        return new Tags(next);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** {@code {"k":"v","n":3,…}}, with JSON string escaping (RFC 8259); {@code {}} when there are no tags. */
    public String json() {
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, Object> tag : values.entrySet()) {
            if (json.length() > 1) {
                json.append(',');
            }
            jsonString(json, tag.getKey());
            json.append(':');
            Object value = tag.getValue();
            if (value instanceof String s) {
                jsonString(json, s);
            } else {
                json.append(CanonicalDdl.literal(value));
            }
        }
        return json.append('}').toString();
    }

    /** {@code with tags (k = 'v', n = 3, …)}, or the empty text when there are no tags. */
    public String clause() {
        if (values.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Object> tag : values.entrySet()) {
            parts.add(CanonicalDdl.identifier(tag.getKey()) + " = " + CanonicalDdl.literal(tag.getValue()));
        }
        return " with tags (" + String.join(", ", parts) + ")";
    }

    private static void jsonString(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
