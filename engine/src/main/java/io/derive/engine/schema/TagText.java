package io.derive.engine.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The two spellings of a materialized view's tags: the JSON object text {@code schema()} and
 * {@code materialized_views()} show, and the {@code with tags (…)} clause of its canonical DDL.
 * Keys keep their insertion order in both.
 */
public final class TagText {
    private TagText() {
    }

    /** {@code {"k":"v",…}}, with JSON string escaping (RFC 8259); {@code {}} when there are no tags. */
    public static String json(Map<String, String> tags) {
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, String> tag : tags.entrySet()) {
            if (json.length() > 1) {
                json.append(',');
            }
            jsonString(json, tag.getKey());
            json.append(':');
            jsonString(json, tag.getValue());
        }
        return json.append('}').toString();
    }

    /** {@code with tags (k = 'v', …)}, or the empty text when there are no tags. */
    public static String clause(Map<String, String> tags) {
        if (tags.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, String> tag : tags.entrySet()) {
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
