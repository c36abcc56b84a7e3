package io.derive.batch.security;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** The console's sign-in and sign-out; both end on a page of the console. */
public final class SignInServlets {
    static final String LOGIN_PAGE = "/login.html";

    private SignInServlets() {
    }

    /**
     * {@code POST /login} with the form's {@code username} and {@code password}: a programmatic
     * login (Servlet 6.0 {@code HttpServletRequest.login}) against the server's user registry; the
     * server's single sign-on cookie then identifies the user. Wrong credentials go back to the
     * login page, marked failed.
     */
    @WebServlet("/login")
    public static class SignIn extends HttpServlet {
        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            String user = request.getParameter("username");
            String password = request.getParameter("password");
            try {
                if (user == null || password == null) {
                    throw new ServletException("no credentials");
                }
                if (request.getUserPrincipal() != null) {
                    request.logout();
                }
                request.login(user, password);
            } catch (ServletException refused) {
                response.sendRedirect(request.getContextPath() + LOGIN_PAGE + "?failed");
                return;
            }
            request.getSession(true);
            response.sendRedirect(request.getContextPath() + "/");
        }
    }

    /** {@code POST /logout}: ends the session and the sign-on, back to the login page. */
    @WebServlet("/logout")
    public static class SignOut extends HttpServlet {
        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
            request.logout();
            if (request.getSession(false) != null) {
                request.getSession(false).invalidate();
            }
            response.sendRedirect(request.getContextPath() + LOGIN_PAGE);
        }
    }
}
