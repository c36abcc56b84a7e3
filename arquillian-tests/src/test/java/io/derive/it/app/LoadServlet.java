package io.derive.it.app;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.StringJoiner;

import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@code GET /derive-test/load?op=…&p=…}: one call of {@link LoadBean}, answered as plain text
 * {@code name=value} lines. HTTP 200 when the call (and so its transaction) succeeded, 409 with
 * {@code failed=} when it failed and rolled back: the client acknowledges only a 200.
 */
@WebServlet("/load")
public class LoadServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @EJB
    LoadBean bean;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String op = request.getParameter("op");
        String p = request.getParameter("p");
        StringBuilder out = new StringBuilder();
        try {
            switch (op) {
                case "setup" -> bean.setup(p, request.getParameter("host"), integer(request, "workers"),
                        integer(request, "customers"), Boolean.parseBoolean(request.getParameter("memoryView")));
                case "transact" -> bean.transact(p, number(request, "tx"), integer(request, "worker"),
                        request.getParameter("kind"), args(request), Boolean.parseBoolean(request.getParameter("second")));
                case "ledgered" -> {
                    long[] in = bean.ledgered(p, number(request, "tx"));
                    out.append("derive=").append(in[0]).append("\nsecond=").append(in[1]).append('\n');
                }
                case "secondLedger" -> out.append("second=").append(bean.secondLedger(p)).append('\n');
                case "setupInsertPair" -> bean.setupInsertPair();
                case "insertPair" -> timeInsertPair(integer(request, "n"), number(request, "from"), out);
                case "insertPairCounts" -> {
                    long[] counts = bean.insertPairCounts();
                    out.append("deriveSource=").append(counts[0]).append("\nderiveView=").append(counts[1])
                            .append("\njdbcSource=").append(counts[2]).append("\njdbcCopy=").append(counts[3]).append('\n');
                }
                default -> {
                    response.sendError(HttpServletResponse.SC_BAD_REQUEST, "unknown op " + op);
                    return;
                }
            }
        } catch (EJBException e) {
            fail(response, e.getCause() == null ? e : e.getCause());
            return;
        } catch (Exception e) {
            fail(response, e);
            return;
        }
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().write(out.toString());
    }

    /**
     * P7: {@code n} inserts through each side, alternating, keys from {@code from}; answers each
     * call's nanoseconds, as the servlet saw the container-managed transaction around it.
     */
    private void timeInsertPair(int n, long from, StringBuilder out) throws Exception {
        StringJoiner derive = new StringJoiner(",");
        StringJoiner jdbc = new StringJoiner(",");
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            bean.insertThroughDerive(from + i);
            long between = System.nanoTime();
            bean.insertThroughJdbc(from + i);
            long end = System.nanoTime();
            derive.add(Long.toString(between - start));
            jdbc.add(Long.toString(end - between));
        }
        out.append("deriveNanos=").append(derive).append("\njdbcNanos=").append(jdbc).append('\n');
    }

    private static void fail(HttpServletResponse response, Throwable e) throws IOException {
        response.setStatus(HttpServletResponse.SC_CONFLICT);
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().write("failed=" + e.toString().replace('\n', ' ') + "\n");
    }

    /** The write's own arguments: every parameter but those of the call itself. */
    private static Map<String, String> args(HttpServletRequest request) {
        Map<String, String> args = new HashMap<>();
        request.getParameterMap().forEach((name, values) -> {
            if (!name.equals("op") && !name.equals("p") && !name.equals("tx") && !name.equals("worker")
                    && !name.equals("kind") && !name.equals("second")) {
                args.put(name, values[0]);
            }
        });
        return args;
    }

    private static long number(HttpServletRequest request, String name) {
        return Long.parseLong(request.getParameter(name));
    }

    private static int integer(HttpServletRequest request, String name) {
        return Integer.parseInt(request.getParameter(name));
    }
}
