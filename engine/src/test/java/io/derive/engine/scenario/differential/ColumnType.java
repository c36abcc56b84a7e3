package io.derive.engine.scenario.differential;

/** Column types of generated tables, with their DDL in Derive/SQLite and in Derby. */
public enum ColumnType {
    INT("integer", "bigint"),
    REAL("real", "double"),
    TEXT("text", "varchar(20)");

    private final String sqlite;
    private final String derby;

    ColumnType(String sqlite, String derby) {
        this.sqlite = sqlite;
        this.derby = derby;
    }

    public String ddl(boolean forDerby) {
        return forDerby ? derby : sqlite;
    }

    /** Types a comparison may mix in both dialects (Derby refuses text against numbers). */
    public boolean comparableWith(ColumnType other) {
        return (this == TEXT) == (other == TEXT);
    }
}
