package io.derive.batch.security;

import java.io.IOException;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Refuses (403) a state-changing request to the API that a browser session authenticated
 * (no basic credentials of its own) and that does not carry the session's CSRF token. Programs
 * sending basic credentials are not asked for one: a foreign page cannot make a browser add them.
 */
@WebFilter("/api/*")
public class CsrfFilter extends HttpFilter {
    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (SAFE.contains(request.getMethod()) || request.getHeader("Authorization") != null || CsrfTokens.carried(request)) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType("application/json");
        response.getWriter().write("{\"error\":\"a console request that changes something needs the session's "
                + CsrfTokens.HEADER + " header\",\"code\":\"forbidden\"}");
    }
}
