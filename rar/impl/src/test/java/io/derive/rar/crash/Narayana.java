package io.derive.rar.crash;

import com.arjuna.ats.arjuna.common.CoordinatorEnvironmentBean;
import com.arjuna.ats.arjuna.common.CoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.CoreEnvironmentBeanException;
import com.arjuna.ats.arjuna.common.ObjectStoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.RecoveryEnvironmentBean;
import com.arjuna.ats.arjuna.recovery.RecoveryManager;
import com.arjuna.ats.arjuna.recovery.RecoveryModule;
import com.arjuna.ats.internal.jta.recovery.arjunacore.XARecoveryModule;
import com.arjuna.ats.jta.common.JTAEnvironmentBean;
import com.arjuna.ats.jta.recovery.XAResourceRecoveryHelper;
import com.arjuna.common.internal.util.propertyservice.BeanPopulator;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import javax.transaction.xa.XAResource;

/**
 * Narayana's standalone JTA as the crash child uses it: configured before its first use (its
 * beans are read once), with the transaction log under the run directory, and its recovery
 * manager driven by hand.
 */
final class Narayana {
    /**
     * The node identifier written into every Xid, and the only node whose branches recovery may
     * roll back as orphans (presumed abort needs to know which branches are its own).
     */
    static final String NODE = "xacrash";

    private static final String ATOMIC_ACTION_MODULE = "com.arjuna.ats.internal.arjuna.recovery.AtomicActionRecoveryModule";
    private static final String XA_MODULE = "com.arjuna.ats.internal.jta.recovery.arjunacore.XARecoveryModule";

    private Narayana() {
    }

    /** Points every Narayana store at {@code objectStore} and sets up recovery; call before anything else of Narayana. */
    static void configure(Path objectStore) {
        String dir = objectStore.toAbsolutePath().toString();
        // The action store is the default instance; the other two are named ones with their own directory.
        for (String name : new String[] {null, "communicationStore", "stateStore"}) {
            ObjectStoreEnvironmentBean store = name == null
                    ? BeanPopulator.getDefaultInstance(ObjectStoreEnvironmentBean.class)
                    : BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, name);
            store.setObjectStoreDir(dir);
            // The decision must be on disk before the second phase; this is the default, said aloud.
            store.setObjectStoreSync(true);
        }
        try {
            BeanPopulator.getDefaultInstance(CoreEnvironmentBean.class).setNodeIdentifier(NODE);
        } catch (CoreEnvironmentBeanException e) {
            throw new IllegalStateException(e);
        }
        // No status-manager socket: recovery runs only after the process that wrote the log is dead.
        BeanPopulator.getDefaultInstance(CoordinatorEnvironmentBean.class).setTransactionStatusManagerEnable(false);

        JTAEnvironmentBean jta = BeanPopulator.getDefaultInstance(JTAEnvironmentBean.class);
        jta.setXaRecoveryNodes(List.of(NODE));
        jta.setXaResourceOrphanFilterClassNames(List.of(
                "com.arjuna.ats.internal.jta.recovery.arjunacore.JTATransactionLogXAResourceOrphanFilter",
                "com.arjuna.ats.internal.jta.recovery.arjunacore.JTANodeNameXAResourceOrphanFilter"));
        // The process that prepared these branches is dead, so no prepared branch is about to get its log record.
        jta.setOrphanSafetyInterval(0);

        RecoveryEnvironmentBean recovery = BeanPopulator.getDefaultInstance(RecoveryEnvironmentBean.class);
        recovery.setRecoveryModuleClassNames(List.of(ATOMIC_ACTION_MODULE, XA_MODULE));
        recovery.setExpiryScannerClassNames(List.of());
        recovery.setRecoveryListener(false);
    }

    /**
     * Runs Narayana's recovery over {@code resources}: two scans, each a first pass of every
     * module (list the branches, read the log) and then a second (replay logged commits; presume
     * abort for this node's branches without a log record), so that a branch first seen in one
     * scan is decided by the next.
     *
     * <p>The passes are called directly rather than through {@link RecoveryManager#scan()}, which
     * waits the backoff period (at least a second: zero means forever) between them; the wait
     * gives live transactions time to write their log, and the process that wrote this log is
     * dead. It saves two seconds per restart, a third of the suite's time.
     */
    static void recover(XAResource... resources) {
        RecoveryManager manager = RecoveryManager.manager(RecoveryManager.DIRECT_MANAGEMENT);
        List<RecoveryModule> modules = List.copyOf(manager.getModules());
        XARecoveryModule xaModule = modules.stream()
                .filter(XARecoveryModule.class::isInstance).map(XARecoveryModule.class::cast)
                .findFirst().orElseThrow(() -> new IllegalStateException("no XARecoveryModule"));
        XAResourceRecoveryHelper helper = new XAResourceRecoveryHelper() {
            @Override
            public boolean initialise(String unused) {
                return true;
            }

            @Override
            public XAResource[] getXAResources() {
                return resources;
            }
        };
        xaModule.addXAResourceRecoveryHelper(helper);
        try {
            for (int scan = 0; scan < 2; scan++) {
                modules.forEach(RecoveryModule::periodicWorkFirstPass);
                modules.forEach(RecoveryModule::periodicWorkSecondPass);
            }
        } finally {
            xaModule.removeXAResourceRecoveryHelper(helper);
            manager.terminate();
        }
    }

    /** The transaction records still in the log: a decision recovery has not completed. */
    static long loggedTransactions(Path objectStore) {
        return transactionRecords(objectStore).size();
    }

    /** Deletes the transaction records, once every branch they name is known to be complete. */
    static void deleteLoggedTransactions(Path objectStore) {
        try {
            for (Path record : transactionRecords(objectStore)) {
                Files.delete(record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> transactionRecords(Path objectStore) {
        if (!Files.isDirectory(objectStore)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(objectStore)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> f.toString().contains(File.separator + "AtomicAction" + File.separator))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
