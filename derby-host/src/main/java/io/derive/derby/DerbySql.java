package io.derive.derby;

/** Derby SQL text for names: every name the host writes is a delimited identifier, so it keeps its case and may hold any character. */
final class DerbySql {
    private DerbySql() {
    }

    static String identifier(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    static String qualified(String schema, String name) {
        return identifier(schema) + "." + identifier(name);
    }

    /**
     * The names of a text of delimited identifiers, each {@link #identifier} written and separated
     * from the next by one character ({@link #qualified} text, for example).
     */
    static java.util.List<String> parseIdentifiers(String text) {
        java.util.List<String> names = new java.util.ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            if (text.charAt(i) != '"') {
                throw new IllegalArgumentException("not a list of delimited Derby names: " + text);
            }
            StringBuilder name = new StringBuilder();
            i++;
            while (i < text.length()) {
                char c = text.charAt(i++);
                if (c == '"') {
                    if (i < text.length() && text.charAt(i) == '"') {
                        name.append('"');
                        i++;
                    } else {
                        break;
                    }
                } else {
                    name.append(c);
                }
            }
            names.add(name.toString());
            i++; // the separator
        }
        return names;
    }
}
