package io.derive.engine.sql.ast;

import io.derive.engine.sql.SourceSpan;

/** A possibly schema-qualified object name; {@code schema} is null when not written. */
public record QualifiedName(String schema, String name, SourceSpan span) {

    @Override
    public String toString() {
        return schema == null ? name : schema + "." + name;
    }
}
