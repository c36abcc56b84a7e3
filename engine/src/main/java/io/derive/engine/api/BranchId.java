package io.derive.engine.api;

import java.util.Arrays;
import java.util.HexFormat;

import javax.transaction.xa.Xid;

/**
 * A global-transaction branch identifier by value: a transaction manager's {@link Xid} class
 * need not implement {@code equals}, and a resource manager's recovery answers xids of its own
 * class, so Derive compares and keys branches by this copy.
 *
 * @param formatId the xid's format identifier
 * @param gtrid    its global transaction id (copied, never exposed)
 * @param bqual    its branch qualifier (copied, never exposed)
 */
public record BranchId(int formatId, byte[] gtrid, byte[] bqual) implements Xid {

    public BranchId {
        gtrid = gtrid.clone();
        bqual = bqual.clone();
    }

    /**
     * The value of {@code xid}.
     *
     * @throws DeriveException {@link DeriveException#DATA} when {@code xid} is null
     */
    public static BranchId of(Xid xid) {
        if (xid == null) {
            throw new DeriveException(DeriveException.DATA, "a transaction branch needs a xid, not null");
        }
        return xid instanceof BranchId b ? b
                : new BranchId(xid.getFormatId(), xid.getGlobalTransactionId(), xid.getBranchQualifier());
    }

    /**
     * The branch {@link #toString()} printed: {@code formatId:gtrid-hex:bqual-hex}, the format
     * id in decimal and each id in hexadecimal digits of either case (an empty id is empty).
     *
     * @throws DeriveException {@link DeriveException#DATA} naming the text when it is not of that form
     */
    public static BranchId parse(String text) {
        String[] parts = text == null ? new String[0] : text.split(":", -1);
        try {
            if (parts.length != 3) {
                throw new IllegalArgumentException("three parts separated by ':' expected");
            }
            HexFormat hex = HexFormat.of();
            return new BranchId(Integer.parseInt(parts[0]), hex.parseHex(parts[1]), hex.parseHex(parts[2]));
        } catch (IllegalArgumentException e) {
            throw new DeriveException(DeriveException.DATA, "'" + text + "' is not a transaction branch of the form "
                    + "formatId:gtrid-hex:bqual-hex (" + e.getMessage() + ")", e);
        }
    }

    @Override
    public int getFormatId() {
        return formatId;
    }

    @Override
    public byte[] getGlobalTransactionId() {
        return gtrid.clone();
    }

    @Override
    public byte[] getBranchQualifier() {
        return bqual.clone();
    }

    @Override
    public byte[] gtrid() {
        return gtrid.clone();
    }

    @Override
    public byte[] bqual() {
        return bqual.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BranchId b && b.formatId == formatId && Arrays.equals(b.gtrid, gtrid)
                && Arrays.equals(b.bqual, bqual);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * formatId + Arrays.hashCode(gtrid)) + Arrays.hashCode(bqual);
    }

    /** {@code formatId:gtrid-hex:bqual-hex}, as logs and error messages show a branch. */
    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return formatId + ":" + hex.formatHex(gtrid) + ":" + hex.formatHex(bqual);
    }
}
