package io.derive.rar;

import java.nio.charset.StandardCharsets;

import javax.transaction.xa.Xid;

/**
 * Xids as a transaction manager hands them over: of a class of its own, without {@code equals},
 * so that the adapter must compare them by value.
 */
final class ForeignXid {
    private ForeignXid() {
    }

    /** An xid of format {@code formatId} whose global id is {@code gtrid} in ASCII and whose branch qualifier is {@code bqual}. */
    static Xid of(int formatId, String gtrid, byte bqual) {
        byte[] global = gtrid.getBytes(StandardCharsets.US_ASCII);
        byte[] branch = {bqual};
        return new Xid() {
            @Override public int getFormatId() { return formatId; }
            @Override public byte[] getGlobalTransactionId() { return global; }
            @Override public byte[] getBranchQualifier() { return branch; }
        };
    }
}
