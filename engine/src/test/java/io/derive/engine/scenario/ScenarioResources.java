package io.derive.engine.scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Loads every {@code *.sql} file of a classpath folder, whether the folder is a directory (the
 * engine's own tests) or inside the engine test-jar (a host module's tests), so adding a file is
 * all it takes to add cases.
 */
public final class ScenarioResources {
    private ScenarioResources() {
    }

    /** The cases of every file under {@code folder}, files in name order. */
    public static List<ScenarioCase> load(String folder) {
        URL url = ScenarioResources.class.getClassLoader().getResource(folder);
        if (url == null) {
            throw new IllegalStateException("no classpath folder '" + folder + "'");
        }
        try {
            URI uri = url.toURI();
            if (uri.getScheme().equals("jar")) {
                FileSystem fs = jarFileSystem(uri);
                return loadFrom(fs.getPath(folder));
            }
            return loadFrom(Path.of(uri));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static FileSystem jarFileSystem(URI uri) throws IOException {
        try {
            return FileSystems.getFileSystem(uri);
        } catch (FileSystemNotFoundException e) {
            return FileSystems.newFileSystem(uri, Map.of());
        }
    }

    private static List<ScenarioCase> loadFrom(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".sql"))
                    .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
                    .toList();
        }
        List<ScenarioCase> cases = new ArrayList<>();
        for (Path file : files) {
            cases.addAll(ScenarioFileParser.parse(file.getFileName().toString(),
                    Files.readString(file, StandardCharsets.UTF_8)));
        }
        return cases;
    }
}
