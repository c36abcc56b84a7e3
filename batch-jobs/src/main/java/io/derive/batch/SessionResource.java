package io.derive.batch;

import io.derive.batch.api.ApiSchemas;
import io.derive.batch.security.CsrfTokens;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import jakarta.json.Json;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /api/session}: who is signed in, whether they may change things (role
 * {@code derive-admin}), and the session's CSRF token, which the console sends with each change.
 * Open to all: nobody signed in is {@code {"user": null, "admin": false, "csrfToken": null}}.
 */
@Path("session")
@Produces(MediaType.APPLICATION_JSON)
public class SessionResource {

    @Context
    HttpServletRequest request;

    @GET
    @Operation(summary = "Read the signed-in user, whether they are an administrator, and the session's CSRF token")
    @APIResponse(responseCode = "200", description = "The session",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Session.class)))
    public Response session() {
        if (request.getUserPrincipal() == null) {
            return Response.ok(Json.createObjectBuilder().addNull("user").add("admin", false).addNull("csrfToken").build())
                    .build();
        }
        return Response.ok(Json.createObjectBuilder()
                .add("user", request.getUserPrincipal().getName())
                .add("admin", request.isUserInRole("derive-admin"))
                .add("csrfToken", CsrfTokens.of(request.getSession(true)))
                .build()).build();
    }
}
