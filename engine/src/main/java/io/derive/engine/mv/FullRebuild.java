package io.derive.engine.mv;

import io.derive.engine.schema.Derivation;

import java.util.List;

/**
 * The full-rebuild floor (semantics §4.5): any write to a source marks the MV dirty; at statement
 * end the body is evaluated again and applied as one keyed diff ({@code replaceAll}).
 */
final class FullRebuild implements Derivation.Maintenance {
    static final String ARM = "full rebuild";

    private final List<String> outputColumns;

    FullRebuild(List<String> outputColumns) {
        this.outputColumns = List.copyOf(outputColumns);
    }

    @Override
    public String arm() {
        return ARM;
    }

    @Override
    public List<String> outputColumns() {
        return outputColumns;
    }
}
