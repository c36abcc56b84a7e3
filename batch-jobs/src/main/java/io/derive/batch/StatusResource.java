package io.derive.batch;

import io.derive.batch.api.ApiSchemas;
import io.derive.client.DeriveConnection;
import io.derive.client.DeriveConnectionFactory;
import io.derive.engine.api.DatabaseStatus;
import io.derive.engine.api.DeriveException;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /api/status}: what an operator watches, read in one call (the console polls it):
 * the database's state, its materialized views with their counters ({@code materialized_views()}),
 * the locks held and waited for ({@code locks()}), the branches in doubt ({@code in_doubt()}) and
 * what the last open rehydrated ({@code rehydrate_report()}). Read-only: monitors may call it.
 * While the database is not open it answers the state alone, with empty lists.
 */
@Path("status")
@Produces(MediaType.APPLICATION_JSON)
public class StatusResource {

    @Inject
    DeriveConnectionFactory connectionFactory;

    @GET
    @Operation(summary = "Read the database's state, views, locks, branches in doubt and rehydrate report")
    @APIResponse(responseCode = "200", description = "The status",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Status.class)))
    @APIResponse(responseCode = "500", description = "The engine could not be read",
            content = @Content(schema = @Schema(implementation = ApiSchemas.Error.class)))
    public Response status() {
        DatabaseStatus database = connectionFactory.status();
        var status = Json.createObjectBuilder().add("state", database.state().name()).add("detail", database.detail());
        if (database.state() != DatabaseStatus.State.OPEN) {
            var none = Json.createArrayBuilder().build();
            return Response.ok(status.add("views", none).add("locks", none).add("inDoubt", none).add("rehydrate", none)
                    .build()).build();
        }
        try (DeriveConnection connection = connectionFactory.getConnection()) {
            status.add("views", JsonValues.objects(connection.run("select schema, name, host, arm, stale, row_count,"
                    + " rows_maintained, maintenance_seconds, refreshes, refresh_seconds, refresh_rows,"
                    + " refresh_schedule, next_refresh from materialized_views() order by schema, name")));
            status.add("locks", JsonValues.objects(connection.run("select * from locks()")));
            status.add("inDoubt", JsonValues.objects(connection.run("select * from in_doubt()")));
            status.add("rehydrate", JsonValues.objects(connection.run("select * from rehydrate_report()")));
            return Response.ok(status.build()).build();
        } catch (DeriveException e) {
            return Response.serverError().type(MediaType.APPLICATION_JSON).entity(JsonValues.error(e.getMessage(), e.code()))
                    .build();
        }
    }
}
