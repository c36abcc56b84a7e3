package io.derive.rar.crash;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The plain Derby resource as the crash child enlists it: Derby's own XAResource, except that
 * {@link #prepare} first sleeps. Narayana prepares the resources in the order they were enlisted,
 * Derive first, and logs its decision only after the last prepare; the sleep widens the stretch in
 * which Derive's branch is prepared and no decision exists anywhere, so that random kills also
 * land there and recovery's presumed abort gets exercised, not only its replay of logged commits.
 */
final class PausingXAResource implements XAResource {
    private final XAResource delegate;
    private final long preparePauseMillis;

    PausingXAResource(XAResource delegate, long preparePauseMillis) {
        this.delegate = delegate;
        this.preparePauseMillis = preparePauseMillis;
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        try {
            Thread.sleep(preparePauseMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return delegate.prepare(xid);
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        delegate.start(xid, flags);
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        delegate.end(xid, flags);
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        delegate.commit(xid, onePhase);
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        delegate.rollback(xid);
    }

    @Override
    public void forget(Xid xid) throws XAException {
        delegate.forget(xid);
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return delegate.recover(flag);
    }

    @Override
    public boolean isSameRM(XAResource other) throws XAException {
        return delegate.isSameRM(other instanceof PausingXAResource p ? p.delegate : other);
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        return delegate.getTransactionTimeout();
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return delegate.setTransactionTimeout(seconds);
    }
}
