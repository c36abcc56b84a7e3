package io.derive.it.app;

import io.derive.rar.XaCallJournal;

import java.io.IOException;
import java.util.List;

import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@code GET /derive-test/scenario?op=…&t=…}: runs one scenario of {@link ScenarioBean} and answers
 * plain text {@code name=value} lines for the test client to check.
 */
@WebServlet("/scenario")
public class ScenarioServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    /** The database name configured for eis/derive in server.xml. */
    private static final String DATABASE = "demo";

    @EJB
    ScenarioBean bean;

    @EJB
    TimeoutScenarioBean timeouts;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String op = request.getParameter("op");
        String t = request.getParameter("t");
        long k = request.getParameter("k") == null ? 1 : Long.parseLong(request.getParameter("k"));
        StringBuilder out = new StringBuilder();
        try {
            switch (op) {
                case "setup" -> bean.setup(t, request.getParameter("host"));
                case "insert" -> bean.insert(t, k);
                case "insertThenThrow" -> bean.insertThenThrow(t, k);
                case "insertThenSetRollbackOnly" -> bean.insertThenSetRollbackOnly(t, k);
                case "scheduleThenSetRollbackOnly" -> bean.scheduleThenSetRollbackOnly(t, request.getParameter("schedule"));
                case "holdThenRollBack" -> bean.holdThenRollBack(t, request.getParameter("values"),
                        Long.parseLong(request.getParameter("millis")));
                case "shared" -> out.append(bean.sharedTransaction(t));
                case "autocommit" -> out.append(bean.autocommit(t));
                case "read" -> {
                    // Only the reads below: what the resources hold now.
                }
                case "twoResources" -> journalled(out,
                        () -> bean.twoResources(t, k, Boolean.parseBoolean(request.getParameter("rollback"))));
                case "sleepPastTheTimeout" -> journalled(out, () -> out.append(timeouts.sleepPastTheTimeout(t, 2, 4_000)));
                case "unshareable" -> journalled(out,
                        () -> bean.unshareableConnections(t, Boolean.parseBoolean(request.getParameter("rollback"))));
                default -> {
                    response.sendError(HttpServletResponse.SC_BAD_REQUEST, "unknown op " + op);
                    return;
                }
            }
            out.append("outcome=ok\n");
        } catch (EJBException e) {
            out.append("outcome=failed: ").append(e.getCause() == null ? e : e.getCause()).append('\n');
        } catch (Exception e) {
            out.append("outcome=failed: ").append(e).append('\n');
        }
        try {
            out.append("derive=").append(bean.keysInNewTransaction("select k from " + t + " order by k")).append('\n');
            out.append("deriveView=").append(bean.keysInNewTransaction("select k from " + t + "_mv order by k")).append('\n');
            out.append("second=").append(bean.secondKeys(t)).append('\n');
        } catch (Exception e) {
            out.append("read=failed: ").append(e).append('\n');
        }
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().write(out.toString());
    }

    @FunctionalInterface
    private interface Scenario {
        void run() throws Exception;
    }

    /** Runs {@code scenario}, then lists the XA calls the transaction manager made meanwhile as {@code xa=} lines. */
    private static void journalled(StringBuilder out, Scenario scenario) throws Exception {
        XaCallJournal journal = XaCallJournal.forDatabase(DATABASE);
        List<XaCallJournal.Entry> before = journal.entries();
        long mark = before.isEmpty() ? 0 : before.get(before.size() - 1).sequence();
        try {
            scenario.run();
        } finally {
            for (XaCallJournal.Entry e : journal.entries()) {
                if (e.sequence() > mark) {
                    out.append("xa=").append(e.operation()).append('|').append(e.xid()).append('|')
                            .append(e.detail()).append('|').append(e.outcome()).append('\n');
                }
            }
        }
    }
}
