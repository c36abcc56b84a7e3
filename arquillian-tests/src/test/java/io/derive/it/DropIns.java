package io.derive.it;

/** Configuration drop-ins the harness-server tests add to the sample server ({@code LibertyServer.configure}). */
final class DropIns {
    /** jdbc/second on disk, so that what it prepared or committed outlives the JVM. */
    static final String SECOND_ON_DISK = """
            <server>
              <dataSource id="secondDB">
                <properties.derby.embedded databaseName="${server.output.dir}/databases/second" createDatabase="create"/>
              </dataSource>
            </server>
            """;

    private DropIns() {
    }
}
