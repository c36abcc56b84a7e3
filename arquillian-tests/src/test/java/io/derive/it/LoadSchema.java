package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.it.load.WorkerModel;
import io.derive.it.server.LibertyServer;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * The load tests' schema on a {@link LibertyServer} ({@code LoadBean.setup}): three source tables,
 * a projection, a group-by and a 1:1 join view, a ledger; and what the tests check of it against
 * the workers' models, each check one SQL statement, so that it reads one committed state even
 * while the load runs.
 */
final class LoadSchema {
    private static final Logger LOG = System.getLogger(LoadSchema.class.getName());

    private final LibertyServer server;
    private final AdminSql sql;
    private final String p;
    private boolean memoryView;

    LoadSchema(LibertyServer server, String prefix) {
        this.server = server;
        this.sql = new AdminSql(server);
        this.p = prefix;
    }

    String prefix() {
        return p;
    }

    /** Creates the schema on {@code host}, customers for {@code workers}; with a memory-hosted group-by too when {@code memoryView}. */
    void create(String host, int workers, boolean memoryView) throws IOException {
        this.memoryView = memoryView;
        HttpResponse<String> answer = server.get("/derive-test/load?op=setup&p=" + p + "&host=" + host + "&workers=" + workers
                + "&customers=" + WorkerModel.CUSTOMERS + "&memoryView=" + memoryView);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(sql.rows("select name, arm from materialized_views() where name like '" + p + "%' order by name").toString())
                .as("each view on the arm it is meant to exercise")
                .contains("[\"" + p + "in_transit\",\"per-row projection\"]", "[\"" + p + "order_regions\",\"1:1 join\"]",
                        "[\"" + p + "per_customer\",\"group recompute\"]");
    }

    /**
     * The rows of the source tables that differ from the models (in one and not the other, or
     * with other values): each is an update that was lost, or one that should not be there.
     */
    List<String> lostUpdates(List<WorkerModel> models) throws IOException {
        List<String> lost = new ArrayList<>();
        lost.addAll(differences("customers", "select id, name, region from " + p + "customers order by id", models,
                WorkerModel::customerRows));
        lost.addAll(differences("orders", "select id, customer, amount, status from " + p + "orders order by id", models,
                WorkerModel::orderRows));
        lost.addAll(differences("shipments", "select id, carrier, state from " + p + "shipments order by id", models,
                WorkerModel::shipmentRows));
        LOG.log(Level.INFO, "{0}: {1} rows differ from the workers'' models", p, lost.size());
        return lost;
    }

    /** Each view with how many rows it and a fresh evaluation of its body do not share, read in one statement. */
    Map<String, Long> viewMismatches() throws IOException {
        Map<String, String[]> views = new LinkedHashMap<>();
        views.put("in_transit", new String[] {"select id, carrier from " + p + "in_transit",
            "select id, carrier from " + p + "shipments where state = 'transit'"});
        views.put("per_customer", new String[] {"select customer, n, total from " + p + "per_customer",
            "select customer, count(*), sum(amount) from " + p + "orders group by customer"});
        views.put("order_regions", new String[] {"select id, amount, status, region from " + p + "order_regions",
            "select o.id, o.amount, o.status, c.region from " + p + "orders o left join " + p + "customers c on c.id = o.customer"});
        if (memoryView) {
            views.put("in_memory", new String[] {"select status, n, total from " + p + "in_memory",
                "select status, count(*), sum(amount) from " + p + "orders group by status"});
        }
        Map<String, Long> mismatches = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> view : views.entrySet()) {
            String v = view.getValue()[0];
            String body = view.getValue()[1];
            JsonArray answer = sql.rows("select (select count(*) from (" + v + " except " + body + "))"
                    + " + (select count(*) from (" + body + " except " + v + "))");
            mismatches.put(p + view.getKey(), answer.getJsonArray(0).getJsonNumber(0).longValue());
        }
        return mismatches;
    }

    /** Runs the {@code mv-verify} job on view {@code <prefix>view}; answers its exit status, failing unless it completed. */
    String verifyJob(String view) throws IOException, InterruptedException {
        JsonObject execution = Jobs.run(server, "mv-verify", Json.createObjectBuilder().add("view", p + view).build());
        assertThat(execution.getString("batchStatus")).as(execution.toString()).isEqualTo("COMPLETED");
        return execution.getString("exitStatus");
    }

    /** The transactions Derive's ledger holds. */
    Set<Long> deriveLedger() throws IOException {
        return sql.rows("select tx from " + p + "ledger order by tx").getValuesAs(JsonArray.class).stream()
                .map(r -> r.getJsonNumber(0).longValue()).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** The transactions jdbc/second's ledger holds. */
    Set<Long> secondLedger() throws IOException {
        HttpResponse<String> answer = server.get("/derive-test/load?op=secondLedger&p=" + p);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        String list = Scenarios.answer(answer.body()).get("second").replaceAll("[\\[\\] ]", "");
        Set<Long> txs = new LinkedHashSet<>();
        for (String tx : list.split(",")) {
            if (!tx.isEmpty()) {
                txs.add(Long.parseLong(tx));
            }
        }
        return txs;
    }

    private List<String> differences(String table, String query, List<WorkerModel> models,
                                     Function<WorkerModel, List<String>> rows) throws IOException {
        Set<String> expected = models.stream().map(rows).flatMap(Collection::stream).collect(Collectors.toCollection(LinkedHashSet::new));
        Set<String> actual = new LinkedHashSet<>();
        for (JsonArray row : sql.rows(query).getValuesAs(JsonArray.class)) {
            actual.add(row.stream().map(LoadSchema::text).collect(Collectors.joining("|")));
        }
        List<String> differ = new ArrayList<>();
        expected.stream().filter(r -> !actual.contains(r)).forEach(r -> differ.add(table + " lacks " + r));
        actual.stream().filter(r -> !expected.contains(r)).forEach(r -> differ.add(table + " has " + r));
        return differ;
    }

    private static String text(JsonValue value) {
        if (value instanceof JsonString s) {
            return s.getString();
        }
        if (value instanceof JsonNumber n) {
            return n.toString();
        }
        return String.valueOf(value);
    }
}
