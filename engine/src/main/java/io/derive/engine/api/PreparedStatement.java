package io.derive.engine.api;

import java.util.Map;

/**
 * A parsed statement of one {@link Session}, run repeatedly with parameters. It belongs to its
 * session: the same threading rules apply, and it is unusable once the session is closed.
 */
public interface PreparedStatement {

    /** Runs the statement with positional parameters; as {@link Session#execute(String, Object...)}. */
    Result execute(Object... parameters);

    /** Runs the statement with named parameters; as {@link Session#execute(String, Map)}. */
    Result execute(Map<String, ?> parameters);
}
