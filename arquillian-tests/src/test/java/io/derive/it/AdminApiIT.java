package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.batch.InDoubtResource;
import io.derive.batch.JobsResource;
import io.derive.batch.SchedulesResource;
import io.derive.batch.SessionResource;
import io.derive.batch.SqlResource;
import io.derive.batch.StatusResource;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.function.DoublePredicate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin API as a client sees it: its OpenAPI document ({@code /openapi}) against the JAX-RS
 * resources themselves, read by reflection; what a read-only monitor may do; the console's
 * sign-in and its CSRF token; Derive's metrics ({@code /metrics}) against a known workload.
 */
@ExtendWith(ArquillianExtension.class)
class AdminApiIT {

    private static final String BASE = "http://localhost:" + System.getProperty("derive.http.port", "9180");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final List<Class<?>> RESOURCES = List.of(SqlResource.class, JobsResource.class, InDoubtResource.class,
            StatusResource.class, SessionResource.class, SchedulesResource.class);
    private static final String ADMIN = "Basic " + Base64.getEncoder().encodeToString("admin:derive".getBytes(StandardCharsets.UTF_8));
    private static final String MONITOR = "Basic " + Base64.getEncoder().encodeToString("monitor:derive".getBytes(StandardCharsets.UTF_8));
    private static final List<String> DOCUMENTED_METRICS = List.of("derive_view_rows", "derive_view_rows_maintained",
            "derive_view_maintenance_seconds", "derive_view_refreshes", "derive_view_refresh_seconds",
            "derive_view_refresh_rows", "derive_view_stale", "derive_lock_waits", "derive_lock_deadlocks",
            "derive_lock_timeouts", "derive_transactions_open", "derive_transaction_commits",
            "derive_transaction_rollbacks", "derive_transaction_prepares", "derive_transaction_read_only",
            "derive_statements_reused", "derive_statements_parsed");

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return TestApplication.ear();
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(BASE + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject sql(String statement) throws Exception {
        String body = jakarta.json.Json.createObjectBuilder().add("sql", statement).build().toString();
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(BASE + "/derive/api/sql"))
                .header("Authorization", ADMIN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(statement + ": " + response.body()).isEqualTo(200);
        return AdminSql.json(response.body());
    }

    /** The value of {@code metric} (on the line carrying {@code tag}, when given) at {@code /metrics}; null when absent. */
    private static Double metric(String metric, String tag) throws Exception {
        HttpResponse<String> response = get("/metrics");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        for (String line : response.body().split("\n")) {
            if (line.startsWith(metric + "{") && (tag == null || line.contains(tag))) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return null;
    }

    /** The value of {@code metric} once it satisfies {@code until}, read every 100 ms for up to 20 s. */
    private static double awaitMetric(String metric, String tag, DoublePredicate until) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            Double value = metric(metric, tag);
            if (value != null && until.test(value)) {
                return value;
            }
            assertThat(System.nanoTime()).as(metric + " " + tag + " reaching its value; last read " + value).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    @Test
    void theMetricsMoveByExactlyWhatAKnownWorkloadDoes() throws Exception {
        sql("drop materialized view if exists metered");
        sql("drop table if exists metered_src");
        sql("create table metered_src (k integer primary key, v integer not null)");
        sql("create materialized view metered as select k, v from metered_src where v > 0");
        String view = "view=\"metered\"";
        double maintained = awaitMetric("derive_view_rows_maintained", view, v -> true);
        double prepares = awaitMetric("derive_transaction_prepares", null, v -> true);
        // The gauge once it shows every commit so far: reading the count is itself read-only.
        long committed = sql("select commits from transaction_counts()").getJsonArray("rows").getJsonArray(0).getJsonNumber(0)
                .longValue();
        double commits = awaitMetric("derive_transaction_commits", null, v -> v == committed);
        double reads = awaitMetric("derive_transaction_read_only", null, v -> true);
        double reused = awaitMetric("derive_statements_reused", null, v -> true);

        sql("insert into metered_src select value, value - 5 from generate_series(1, 30)");
        assertThat(awaitMetric("derive_transaction_commits", null, v -> v >= commits + 1))
                .as("the insert, while the metrics' own reads count as read-only").isEqualTo(commits + 1);
        assertThat(awaitMetric("derive_transaction_read_only", null, v -> v > reads)).isGreaterThan(reads);
        assertThat(awaitMetric("derive_statements_reused", null, v -> v > reused))
                .as("the gauges' own readings run the texts of the reading before").isGreaterThan(reused);
        HttpResponse<String> twoPhase = get(Scenarios.path("setup", "metered_xa"));
        assertThat(twoPhase.statusCode()).isEqualTo(200);
        twoPhase = get(Scenarios.path("twoResources", "metered_xa", "k", "1"));
        assertThat(Scenarios.answer(twoPhase.body())).containsEntry("outcome", "ok");

        assertThat(awaitMetric("derive_view_rows_maintained", view, v -> v >= maintained + 25))
                .as("the 25 rows with v > 0").isEqualTo(maintained + 25);
        assertThat(awaitMetric("derive_view_rows", view, v -> v >= 25)).isEqualTo(25);
        assertThat(awaitMetric("derive_transaction_prepares", null, v -> v >= prepares + 1))
                .as("the one two-phase commit").isEqualTo(prepares + 1);
        String text = get("/metrics").body();
        for (String name : DOCUMENTED_METRICS) {
            assertThat(text).as("documented metric " + name).containsPattern("(?m)^" + name + "\\{");
        }
    }

    @Test
    void aMonitorReadsEveryGetButEveryChangingResourceMethodAnswersItForbidden() throws Exception {
        for (Endpoint endpoint : endpoints()) {
            URI uri = URI.create(BASE + "/derive" + endpoint.example());
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Authorization", MONITOR);
            if (endpoint.method().equals("get")) {
                int status = HTTP.send(request.GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode();
                assertThat(status).as("a monitor's " + endpoint).isNotIn(401, 403);
            } else {
                request.header("Content-Type", "application/json")
                        .method(endpoint.method().toUpperCase(Locale.ROOT), HttpRequest.BodyPublishers.ofString("{}"));
                int status = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
                assertThat(status).as("a monitor's " + endpoint).isEqualTo(403);
            }
        }
    }

    /** A browser's client: keeps its cookies, follows no redirect. */
    private static HttpClient browser() {
        return HttpClient.newBuilder().cookieHandler(new CookieManager()).followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    private static JsonObject session(HttpClient browser) throws Exception {
        return AdminSql.json(browser.send(HttpRequest.newBuilder(URI.create(BASE + "/derive/api/session")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static HttpResponse<String> signIn(HttpClient browser, String user, String password) throws Exception {
        String form = "username=" + user + "&password=" + password;
        return browser.send(HttpRequest.newBuilder(URI.create(BASE + "/derive/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theConsolesFormSignsInToASessionWhoseChangesNeedItsCsrfToken() throws Exception {
        HttpClient browser = browser();
        assertThat(session(browser).isNull("user")).as("nobody signed in yet").isTrue();
        assertThat(browser.send(HttpRequest.newBuilder(URI.create(BASE + "/derive/api/status")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
        assertThat(signIn(browser, "admin", "wrong").headers().firstValue("Location").orElseThrow())
                .endsWith("/derive/login.html?failed");

        HttpResponse<String> signedIn = signIn(browser, "admin", "derive");
        assertThat(signedIn.statusCode()).isEqualTo(302);
        assertThat(signedIn.headers().firstValue("Location").orElseThrow()).endsWith("/derive/");
        assertThat(browser.send(HttpRequest.newBuilder(URI.create(BASE + "/derive/api/status")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).as("the API, by the sign-on cookie").isEqualTo(200);
        JsonObject session = session(browser);
        assertThat(session.getString("user")).isEqualTo("admin");
        assertThat(session.getBoolean("admin")).isTrue();

        for (Endpoint endpoint : endpoints()) {
            if (!endpoint.method().equals("get")) {
                URI uri = URI.create(BASE + "/derive" + endpoint.example());
                int status = browser.send(HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                        .method(endpoint.method().toUpperCase(Locale.ROOT), HttpRequest.BodyPublishers.ofString("{}")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode();
                assertThat(status).as("the console's " + endpoint + " without its CSRF token").isEqualTo(403);
            }
        }
        HttpResponse<String> withToken = browser.send(HttpRequest.newBuilder(URI.create(BASE + "/derive/api/sql"))
                .header("Content-Type", "application/json").header("X-CSRF-Token", session.getString("csrfToken"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": \"select 1 as one\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(withToken.statusCode()).as(withToken.body()).isEqualTo(200);
    }

    /** One resource method: its HTTP method and its path under the application ({@code /api/...}). */
    private record Endpoint(String method, String path) {
        /** The path with an example value for each path parameter. */
        String example() {
            return path.replace("{executionId}", "1").replace("{xid}", "1:ab:01").replace("{view}", "v");
        }
    }

    private static List<Endpoint> endpoints() {
        List<Endpoint> endpoints = new ArrayList<>();
        for (Class<?> resource : RESOURCES) {
            String base = "/api/" + resource.getAnnotation(Path.class).value();
            for (Method method : resource.getMethods()) {
                for (Class<? extends Annotation> verb : List.of(GET.class, POST.class, PUT.class, DELETE.class)) {
                    if (method.isAnnotationPresent(verb)) {
                        Path path = method.getAnnotation(Path.class);
                        endpoints.add(new Endpoint(verb.getSimpleName().toLowerCase(Locale.ROOT),
                                path == null ? base : base + "/" + path.value()));
                    }
                }
            }
        }
        return endpoints;
    }

    @Test
    void theOpenApiDocumentListsEveryResourceMethodWithANamedSchemaForEachResponseBody() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(BASE + "/openapi?format=JSON")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        JsonObject document = AdminSql.json(response.body());
        JsonObject paths = document.getJsonObject("paths");
        JsonObject schemas = document.getJsonObject("components").getJsonObject("schemas");

        List<Endpoint> endpoints = endpoints();
        assertThat(endpoints).as("resource methods found by reflection").hasSizeGreaterThanOrEqualTo(14);
        for (Endpoint endpoint : endpoints) {
            String documented = paths.keySet().stream().filter(p -> p.endsWith(endpoint.path())).findFirst()
                    .orElseThrow(() -> new AssertionError(endpoint + " is not in the OpenAPI document: " + paths.keySet()));
            JsonObject operation = paths.getJsonObject(documented).getJsonObject(endpoint.method());
            assertThat(operation).as(endpoint.toString()).isNotNull();
            assertThat(operation.getString("summary", "")).as(endpoint + " summary").isNotBlank();
            JsonObject responses = operation.getJsonObject("responses");
            assertThat(responses.keySet()).as(endpoint + " responses").isNotEmpty();
            for (String code : responses.keySet()) {
                JsonObject content = responses.getJsonObject(code).getJsonObject("content");
                if (code.equals("204")) {
                    assertThat(content).as(endpoint + " 204 has no body").isNull();
                    continue;
                }
                String ref = content.getJsonObject("application/json").getJsonObject("schema").getString("$ref");
                String name = ref.substring(ref.lastIndexOf('/') + 1);
                assertThat(schemas.getJsonObject(name).getJsonObject("properties").keySet())
                        .as(endpoint + " " + code + " schema " + name).isNotEmpty();
            }
            if (endpoint.method().equals("post") && operation.containsKey("requestBody")) {
                JsonValue body = operation.getJsonObject("requestBody").getJsonObject("content")
                        .getJsonObject("application/json").getJsonObject("schema").get("$ref");
                assertThat(body).as(endpoint + " request body schema").isNotNull();
            }
        }
    }
}
