package io.derive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.derive.batch.InDoubtResource;
import io.derive.batch.JobsResource;
import io.derive.batch.SqlResource;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
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
 * resources themselves, read by reflection.
 */
@ExtendWith(ArquillianExtension.class)
class AdminApiIT {

    private static final String BASE = "http://localhost:" + System.getProperty("derive.http.port", "9180");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final List<Class<?>> RESOURCES = List.of(SqlResource.class, JobsResource.class, InDoubtResource.class);

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        return TestApplication.ear();
    }

    /** One resource method: its HTTP method and its path under the application ({@code /api/...}). */
    private record Endpoint(String method, String path) {
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
        assertThat(endpoints).as("resource methods found by reflection").hasSizeGreaterThanOrEqualTo(11);
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
