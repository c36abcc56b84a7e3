package io.derive.batch;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The admin REST API, under {@code /api} of this module's context root. */
@ApplicationPath("/api")
public class DeriveApplication extends Application {
}
