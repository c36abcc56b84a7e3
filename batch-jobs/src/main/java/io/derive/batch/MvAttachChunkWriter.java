package io.derive.batch;

import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

/**
 * The writer of {@code mv-attach}'s chunk step: reconciles the next key range of the table with
 * the chunk's rows of the body ({@code alter table t attach continue run … limit n}); identical
 * rows are not rewritten.
 */
@Named("mvAttachChunkWriter")
@Dependent
public class MvAttachChunkWriter extends RunChunkWriter {

    @Override
    String continueStatement(String run, int limit) {
        return "alter table " + view + " attach continue run " + run + " limit " + limit;
    }

    @Override
    String what() {
        return "attach to table " + view;
    }
}
