package io.derive.batch.security;

import java.security.SecureRandom;
import java.util.HexFormat;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;

/**
 * The token a signed-in console sends with every state-changing request
 * ({@value #HEADER}), one per session: another site's page can make the browser send the
 * session cookie, but cannot read the token to send with it.
 */
public final class CsrfTokens {
    public static final String HEADER = "X-CSRF-Token";
    private static final String ATTRIBUTE = CsrfTokens.class.getName();
    private static final SecureRandom RANDOM = new SecureRandom();

    private CsrfTokens() {
    }

    /** The session's token, made on first use. */
    public static String of(HttpSession session) {
        synchronized (session) {
            Object token = session.getAttribute(ATTRIBUTE);
            if (token == null) {
                byte[] bytes = new byte[24];
                RANDOM.nextBytes(bytes);
                token = HexFormat.of().formatHex(bytes);
                session.setAttribute(ATTRIBUTE, token);
            }
            return (String) token;
        }
    }

    /** Whether the request carries its session's token; false without a session or a token. */
    static boolean carried(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        String sent = request.getHeader(HEADER);
        return session != null && sent != null && sent.equals(session.getAttribute(ATTRIBUTE));
    }
}
