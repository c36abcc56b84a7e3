package io.derive.derby;

import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.Session;

import java.nio.file.Path;

/**
 * The child JVM of {@link FlushCrashTest}: one transaction of 2,500 new source rows — three
 * batches of the source table alone — whose commit the test hook halts inside the flush.
 */
public final class FlushCrashChild {
    static final String COMMITTING = "committing";

    private FlushCrashChild() {
    }

    public static void main(String[] args) {
        Database db = Derive.open(Path.of(args[0]));
        Session s = db.openSession();
        s.begin();
        for (int k = 100; k < 2600; k++) {
            s.execute("insert into src values (?, ?, ?)", k, k % 7, k);
        }
        System.out.println(COMMITTING);
        System.out.flush();
        s.commit();
        // Reaching here means the hook did not halt the flush: the test fails on the exit status.
        System.out.println("committed");
        System.exit(0);
    }
}
