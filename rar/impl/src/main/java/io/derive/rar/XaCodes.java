package io.derive.rar;

import io.derive.engine.api.DeriveException;

import java.util.ArrayList;
import java.util.List;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;

/** The XA vocabulary of the adapter: how engine errors become XA codes, and how codes and flags are named in logs. */
final class XaCodes {

    private XaCodes() {
    }

    static XAException error(int code, String message) {
        XAException e = new XAException(message);
        e.errorCode = code;
        return e;
    }

    static XAException error(int code, Throwable cause) {
        XAException e = error(code, cause.getMessage());
        e.initCause(cause);
        return e;
    }

    /** The XA_RB* code that reports a transaction the engine rolled back because of {@code e}. */
    static int rollbackCode(DeriveException e) {
        String code = e.code();
        if (DeriveException.CONSTRAINT.equals(code)) {
            return XAException.XA_RBINTEGRITY;
        }
        if (DeriveException.LOCK_TIMEOUT.equals(code)) {
            return XAException.XA_RBTIMEOUT;
        }
        if (DeriveException.DEADLOCK.equals(code)) {
            return XAException.XA_RBDEADLOCK;
        }
        return XAException.XA_RBROLLBACK;
    }

    /**
     * The XA code of a failed decision (commit, rollback, forget) of a branch no live
     * transaction has: unknown (XAER_NOTA), decided heuristically by an operator (XA_HEURCOM,
     * XA_HEURRB: a branch is one Derby transaction, so never mixed), or a failure to try again.
     */
    static int decisionCode(DeriveException e) {
        return switch (e.code()) {
            case DeriveException.UNDEFINED_OBJECT -> XAException.XAER_NOTA;
            case DeriveException.HEURISTICALLY_COMMITTED -> XAException.XA_HEURCOM;
            case DeriveException.HEURISTICALLY_ROLLED_BACK -> XAException.XA_HEURRB;
            default -> XAException.XAER_RMFAIL;
        };
    }

    static String codeName(int code) {
        return switch (code) {
            case XAException.XA_RBROLLBACK -> "XA_RBROLLBACK";
            case XAException.XA_RBINTEGRITY -> "XA_RBINTEGRITY";
            case XAException.XA_RBTIMEOUT -> "XA_RBTIMEOUT";
            case XAException.XA_RBDEADLOCK -> "XA_RBDEADLOCK";
            case XAException.XA_HEURHAZ -> "XA_HEURHAZ";
            case XAException.XA_HEURCOM -> "XA_HEURCOM";
            case XAException.XA_HEURRB -> "XA_HEURRB";
            case XAException.XA_HEURMIX -> "XA_HEURMIX";
            case XAException.XAER_NOTA -> "XAER_NOTA";
            case XAException.XAER_PROTO -> "XAER_PROTO";
            case XAException.XAER_INVAL -> "XAER_INVAL";
            case XAException.XAER_DUPID -> "XAER_DUPID";
            case XAException.XAER_OUTSIDE -> "XAER_OUTSIDE";
            case XAException.XAER_RMERR -> "XAER_RMERR";
            case XAException.XAER_RMFAIL -> "XAER_RMFAIL";
            default -> "XAException(" + code + ")";
        };
    }

    static String flagNames(int flags) {
        if (flags == XAResource.TMNOFLAGS) {
            return "TMNOFLAGS";
        }
        List<String> names = new ArrayList<>();
        int[] bits = {XAResource.TMJOIN, XAResource.TMRESUME, XAResource.TMSUCCESS, XAResource.TMFAIL,
                XAResource.TMSUSPEND, XAResource.TMSTARTRSCAN, XAResource.TMENDRSCAN, XAResource.TMONEPHASE};
        String[] labels = {"TMJOIN", "TMRESUME", "TMSUCCESS", "TMFAIL", "TMSUSPEND", "TMSTARTRSCAN", "TMENDRSCAN", "TMONEPHASE"};
        int rest = flags;
        for (int i = 0; i < bits.length; i++) {
            if ((flags & bits[i]) != 0) {
                names.add(labels[i]);
                rest &= ~bits[i];
            }
        }
        if (rest != 0) {
            names.add("0x" + Integer.toHexString(rest));
        }
        return String.join("|", names);
    }
}
