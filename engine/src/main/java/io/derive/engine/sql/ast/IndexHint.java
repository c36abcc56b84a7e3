package io.derive.engine.sql.ast;

/**
 * A table reference's index clause, as SQLite has it: {@code indexed by <index>} makes the
 * planner reach the table's rows through that index, {@code not indexed} through no secondary
 * index (key seeks stay allowed). Either is a plan choice: it never changes a result.
 */
public sealed interface IndexHint {

    /** No clause: the planner chooses. */
    IndexHint ANY = new Any();

    /** {@code not indexed}. */
    IndexHint NOT_INDEXED = new NotIndexed();

    record Any() implements IndexHint {
    }

    record NotIndexed() implements IndexHint {
    }

    /** {@code indexed by index}, where {@code span} is the index name's place, for errors. */
    record IndexedBy(String index, SourceSpan span) implements IndexHint {
    }
}
