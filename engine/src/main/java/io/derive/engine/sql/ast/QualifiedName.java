package io.derive.engine.sql.ast;


/** A possibly schema-qualified object name; {@code schema} is null when not written. */
public record QualifiedName(String schema, String name, SourceSpan span) {

    @Override
    public String toString() {
        return schema == null ? name : schema + "." + name;
    }
}
