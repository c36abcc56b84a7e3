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

    /** The schema and name of a {@link #qualified} text. */
    static String[] parseQualified(String qualified) {
        String[] parts = new String[2];
        int i = 0;
        for (int part = 0; part < 2; part++) {
            if (i >= qualified.length() || qualified.charAt(i) != '"') {
                throw new IllegalArgumentException("not a qualified Derby name: " + qualified);
            }
            StringBuilder name = new StringBuilder();
            i++;
            while (i < qualified.length()) {
                char c = qualified.charAt(i++);
                if (c == '"') {
                    if (i < qualified.length() && qualified.charAt(i) == '"') {
                        name.append('"');
                        i++;
                    } else {
                        break;
                    }
                } else {
                    name.append(c);
                }
            }
            parts[part] = name.toString();
            if (part == 0) {
                i++; // the dot
            }
        }
        return parts;
    }
}
