package io.derive.rar;

import io.derive.client.DeriveConnection;

import java.nio.file.Path;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The child JVM of {@link XaFaultHookTest}: one two-phase commit of an insert on the durable
 * database in {@code args[0]}, printing a line as each XA call returns, so that the parent sees
 * where the hook halted it.
 */
final class XaFaultHookChild {
    static final String PREPARED = "prepared";
    static final String COMMITTED = "committed";

    private XaFaultHookChild() {
    }

    public static void main(String[] args) throws Exception {
        DeriveResourceAdapter adapter = new DeriveResourceAdapter();
        adapter.start(null);
        DeriveManagedConnectionFactory factory = XaFaultHookTest.factory(adapter, Path.of(args[0]));
        DeriveManagedConnection mc = (DeriveManagedConnection) factory.createManagedConnection(null, null);
        XAResource xa = mc.getXAResource();
        Xid xid = XaFaultHookTest.XID;
        xa.start(xid, XAResource.TMNOFLAGS);
        ((DeriveConnection) mc.getConnection(null, null)).execute("insert into t values (2)");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.prepare(xid);
        System.out.println(PREPARED);
        xa.commit(xid, false);
        System.out.println(COMMITTED);
        adapter.stop();
    }
}
