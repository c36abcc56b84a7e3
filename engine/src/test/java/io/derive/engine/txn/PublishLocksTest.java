package io.derive.engine.txn;

import io.derive.engine.spi.HostedTable;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PublishLocksTest {
    private final PublishLocks locks = new PublishLocks();

    /** A table the locks only tell apart by identity. */
    private static HostedTable table() {
        return (HostedTable) Proxy.newProxyInstance(HostedTable.class.getClassLoader(), new Class<?>[]{HostedTable.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> null;
                });
    }

    @Test
    void aTableHasOneLockWhicheverCommitAsksForIt() {
        HostedTable t = table();

        assertThat(locks.of(List.of(t)).get(0)).isSameAs(locks.of(List.of(t)).get(0));
        assertThat(locks.of(List.of(table())).get(0)).isNotSameAs(locks.of(List.of(t)).get(0));
    }

    @Test
    void everyCommitTakesTheLocksOfItsTablesInOneOrder() {
        HostedTable a = table();
        HostedTable b = table();

        assertThat(locks.of(List.of(b, a))).containsExactlyElementsOf(locks.of(List.of(a, b)));
    }
}
