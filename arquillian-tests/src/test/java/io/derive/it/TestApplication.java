package io.derive.it;

import io.derive.it.app.LoadBean;
import io.derive.it.app.LoadServlet;
import io.derive.it.app.ScenarioBean;
import io.derive.it.app.ScenarioServlet;
import io.derive.it.app.TimeoutScenarioBean;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The application the integration tests deploy: the EAR as built, with the test web module
 * ({@code /derive-test}: {@link ScenarioBean} behind {@link ScenarioServlet}, {@link LoadBean}
 * behind {@link LoadServlet}) added to it and to its application.xml — inside the EAR, because
 * the resource adapter's client classes are only visible to modules of the same application.
 */
final class TestApplication {
    static final String NAME = "derive";

    private TestApplication() {
    }

    static EnterpriseArchive ear() {
        EnterpriseArchive ear = ShrinkWrap.create(ZipImporter.class, NAME + ".ear")
                .importFrom(new File(System.getProperty("derive.ear", "target/derive.ear")))
                .as(EnterpriseArchive.class);
        WebArchive tests = ShrinkWrap.create(WebArchive.class, "derive-test.war")
                .addClasses(ScenarioBean.class, ScenarioServlet.class, TimeoutScenarioBean.class, LoadBean.class, LoadServlet.class);
        ear.addAsModule(tests);
        String applicationXml = new String(readEntry(ear, "META-INF/application.xml"), StandardCharsets.UTF_8);
        String testModule = "<module><web><web-uri>derive-test.war</web-uri><context-root>/derive-test</context-root></web></module>";
        ear.setApplicationXML(new StringAsset(applicationXml.replace("</application>", testModule + "</application>")));
        return ear;
    }

    private static byte[] readEntry(EnterpriseArchive ear, String path) {
        try (InputStream in = ear.get(path).getAsset().openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
