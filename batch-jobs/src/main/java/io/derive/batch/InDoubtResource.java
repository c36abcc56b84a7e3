package io.derive.batch;

import io.derive.batch.api.ApiSchemas;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.BranchId;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.InDoubtBranch;

import java.io.StringReader;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The operator's view of the transactions a server process that ended left in doubt, for when
 * the transaction manager cannot decide them (its log is lost):
 * <ul>
 *   <li>{@code GET /api/in-doubt} answers {@code {"branches": [{"xid", "state", "touched",
 *       "decidedAt"}]}}: each branch as {@code formatId:gtrid-hex:bqual-hex}, its state
 *       ({@code in doubt}, {@code heuristically committed}, {@code heuristically rolled back}),
 *       what it wrote, and when it was decided (null while in doubt);</li>
 *   <li>{@code POST /api/in-doubt/{xid}} with {@code {"outcome": "commit"|"rollback"}} decides it
 *       by hand and answers the branch as decided; the transaction manager is told the outcome
 *       (XA_HEURCOM / XA_HEURRB) until it forgets the branch;</li>
 *   <li>{@code DELETE /api/in-doubt/{xid}} forgets a decision no transaction manager will ask for
 *       (204).</li>
 * </ul>
 * A malformed xid or outcome answers 400, an xid with no such branch 404, a branch decided already
 * 409 (the outcome is the code), any other failure 500; each with {@code {"error", "code"}}.
 */
@Path("in-doubt")
@Produces(MediaType.APPLICATION_JSON)
public class InDoubtResource {

    @Inject
    DeriveConnectionFactory connectionFactory;

    @Operation(summary = "List the transaction branches left in doubt or decided by hand")
    @APIResponse(responseCode = "200", description = "The branches",
            content = @Content(schema = @Schema(implementation = ApiSchemas.InDoubtBranches.class)))
    @APIResponse(responseCode = "500", description = "The database could not list them",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @GET
    public Response list() {
        try {
            JsonArrayBuilder branches = Json.createArrayBuilder();
            connectionFactory.inDoubtBranches().forEach(b -> branches.add(toJson(b)));
            return Response.ok(Json.createObjectBuilder().add("branches", branches).build()).build();
        } catch (DeriveException e) {
            return failure(e);
        }
    }

    @Operation(summary = "Decide a branch left in doubt by hand")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = ApiSchemas.Outcome.class)))
    @APIResponse(responseCode = "200", description = "The branch as decided",
            content = @Content(schema = @Schema(implementation = ApiSchemas.InDoubtBranch.class)))
    @APIResponse(responseCode = "400", description = "A malformed xid or outcome",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @APIResponse(responseCode = "404", description = "No such branch",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @APIResponse(responseCode = "409", description = "The branch was decided already",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @POST
    @Path("{xid}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response resolve(@PathParam("xid") String xid, String body) {
        boolean commit;
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            JsonObject request = reader.readObject();
            String outcome = request.getString("outcome", "");
            if (!outcome.equals("commit") && !outcome.equals("rollback")) {
                return SqlResource.badRequest("\"outcome\" must be \"commit\" or \"rollback\"");
            }
            commit = outcome.equals("commit");
        } catch (JsonException | ClassCastException e) {
            return SqlResource.badRequest("malformed request: " + e.getMessage());
        }
        try {
            BranchId branch = BranchId.parse(xid);
            connectionFactory.resolveInDoubt(branch, commit);
            return connectionFactory.inDoubtBranches().stream().filter(b -> b.xid().equals(branch)).findFirst()
                    .map(b -> Response.ok(toJson(b)).build())
                    // The transaction manager forgot it in the meantime: decided, and nothing left to list.
                    .orElseGet(() -> Response.ok(Json.createObjectBuilder().add("xid", xid).build()).build());
        } catch (DeriveException e) {
            return failure(e);
        }
    }

    @Operation(summary = "Forget a decision no transaction manager will ask for")
    @APIResponse(responseCode = "204", description = "Forgotten")
    @APIResponse(responseCode = "400", description = "A malformed xid",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @APIResponse(responseCode = "404", description = "No such branch",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    @DELETE
    @Path("{xid}")
    public Response forget(@PathParam("xid") String xid) {
        try {
            connectionFactory.forgetResolved(BranchId.parse(xid));
            return Response.noContent().build();
        } catch (DeriveException e) {
            return failure(e);
        }
    }

    private static JsonObject toJson(InDoubtBranch branch) {
        JsonArrayBuilder touched = Json.createArrayBuilder();
        branch.touched().forEach(touched::add);
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("xid", branch.xid().toString())
                .add("state", branch.state().label())
                .add("touched", touched);
        if (branch.decidedAt() == null) {
            json.addNull("decidedAt");
        } else {
            json.add("decidedAt", branch.decidedAt().toString());
        }
        return json.build();
    }

    private static Response failure(DeriveException e) {
        Response.Status status = switch (e.code()) {
            case DeriveException.DATA -> Response.Status.BAD_REQUEST;
            case DeriveException.UNDEFINED_OBJECT -> Response.Status.NOT_FOUND;
            case DeriveException.HEURISTICALLY_COMMITTED, DeriveException.HEURISTICALLY_ROLLED_BACK -> Response.Status.CONFLICT;
            default -> Response.Status.INTERNAL_SERVER_ERROR;
        };
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(JsonValues.error(e.getMessage(), e.code())).build();
    }
}
