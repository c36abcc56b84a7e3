package io.derive.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The packaged {@code cli/target/derive.jar}, run as other tools run it: {@code java -jar}. */
class DeriveJarIT {
    private static final Path JAR = Path.of(System.getProperty("derive.jar", "target/derive.jar"));

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
    }

    @Test
    void scriptRunsInJsonLinesAndExitsWithZero() throws Exception {
        Path script = Files.writeString(dir.resolve("s.sql"), """
                create table t (id integer primary key, x text);
                insert into t values (1, 'a'), (2, null);
                select nope from t;
                select id, x from t order by id
                """);

        Run run = derive("--format", "jsonl", "--run", script.toString());

        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo("""
                {"ok":true,"changes":0}
                {"ok":true,"changes":2}
                {"ok":false,"error":"no such column: nope","code":"42704","line":3,"column":8}
                {"ok":true,"columns":["id","x"],"rows":[[1,"a"],[2,null]]}
                """);
        assertThat(run.err()).isEmpty();
    }

    @Test
    void inlineScriptPrintsATable() throws Exception {
        Run run = derive("-e", "select 1 as n");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo("n\n-\n1\n(1 row)\n");
    }

    @Test
    void badOptionExitsWithTwo() throws Exception {
        assertThat(derive("--host", "nowhere", "-e", "select 1").exit()).isEqualTo(2);
    }

    @Test
    void unopenableDatabaseExitsWithThree() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("occupied"), "not a database");
        Run run = derive("--db", file.toString(), "-e", "select 1");

        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err()).contains("cannot open the database at " + file);
    }

    @Test
    void aDerbyDatabaseOutlivesTheProcess() throws Exception {
        Path db = dir.resolve("shop");
        assertThat(derive("--db", db.toString(), "-e", "create table t (k integer primary key); insert into t values (5)").exit()).isZero();
        Run run = derive("--db", db.toString(), "-e", "select k from t");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("5");
    }

    @Test
    void pipedInputRunsWithoutPrompts() throws Exception {
        Run run = derive(List.of(), "select 2 as n;\n");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo("n\n-\n2\n(1 row)\n");
    }

    private Run derive(String... args) throws IOException, InterruptedException {
        return derive(List.of(args), "");
    }

    private Run derive(List<String> args, String input) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
        command.addAll(args);
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        process.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("derive finished").isTrue();
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
