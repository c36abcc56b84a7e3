package io.derive.engine.scenario.differential;

/**
 * A fragment of generated SQL in two renderings: the SQLite dialect (which Derive speaks) and
 * Derby's, or null for Derby when the fragment is outside the common subset.
 */
public record Sql(String sqlite, String derby) {

    public static Sql both(String text) {
        return new Sql(text, text);
    }

    public static Sql sqliteOnly(String text) {
        return new Sql(text, null);
    }

    public boolean derbyCompatible() {
        return derby != null;
    }

    /** Concatenates fragments; the result is Derby-compatible only if every part is. */
    public static Sql concat(Object... parts) {
        StringBuilder s = new StringBuilder();
        StringBuilder d = new StringBuilder();
        boolean derbyOk = true;
        for (Object part : parts) {
            if (part instanceof Sql sql) {
                s.append(sql.sqlite);
                if (sql.derby == null) {
                    derbyOk = false;
                } else {
                    d.append(sql.derby);
                }
            } else {
                s.append(part);
                d.append(part);
            }
        }
        return new Sql(s.toString(), derbyOk ? d.toString() : null);
    }
}
