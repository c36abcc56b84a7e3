package io.derive.derby.crash;

/**
 * The engine did not do what the model predicts, seen by the child while it runs a transaction
 * (a wrong update count, a statement that should fail and did not, a wrong read): the child
 * reports it on its protocol stream and stops, and the parent fails the test with it.
 */
final class WorkloadFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WorkloadFailure(String message) {
        super(message);
    }

    WorkloadFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
