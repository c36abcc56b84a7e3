package io.derive.engine.scenario;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.Derive;
import io.derive.engine.api.Database;
import io.derive.engine.api.DeriveException;
import io.derive.engine.api.Session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the scenario cases on the host its first argument names, each statement preceded by
 * copies of it with a few tokens deleted, repeated, swapped or replaced (by a keyword, an extreme
 * literal, a bracket): malformed, ill-typed, runaway statements next to the ones that set each
 * case up. Prints {@code escape <throwable> at <frame>: <statement>} for each kind of throwable
 * other than a {@link DeriveException} that reached the caller, then {@code done <run> <refused>}.
 * Arguments: host, seed, mutated copies per statement. Run in a small heap of its own
 * ({@link MutatedStatementsSuite}), where a runaway statement meets the heap limit soon.
 */
public final class MutatedStatements {
    private static final Pattern TOKEN = Pattern.compile(
            "'(?:[^']|'')*'|\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?|\\w+|<=|>=|<>|!=|\\|\\||\\S");
    private static final String[] REPLACEMENTS = {
            "null", "0", "-1", "9223372036854775807", "-9223372036854775808", "1e308", "9e999", "-0.0", "1.5",
            "''", "'x'", "x'00'", "true", "?", "(", ")", ",", "*", "+", "/", "%", "||", "select", "from", "where",
            "group by", "order by", "as", "on", "join", "not", "and", "or", "count(*)", "(select 1)", "case", "end",
            "between", "in", "like", "distinct", "limit", "offset", "collate nocase", "cast(", "primary key",
            "unique", "check", "default", "references", "exists", "with", "union", "over", "filter"};

    private MutatedStatements() {
    }

    public static void main(String[] args) {
        String host = args[0];
        Random random = new Random(Long.parseLong(args[1]));
        int copies = Integer.parseInt(args[2]);
        Map<String, String> escapes = new LinkedHashMap<>();
        long run = 0;
        long refused = 0;
        int databases = 0;
        for (ScenarioCase c : ScenarioResources.load("scenarios")) {
            try (Database db = Derive.open(DatabaseConfig.named("mutated-" + databases++).withDefaultHost(host));
                 Session session = db.openSession()) {
                for (ScenarioStep step : c.steps()) {
                    for (int i = 0; i < copies; i++) {
                        String mutated = mutate(step.sql(), random);
                        run++;
                        try {
                            session.execute(mutated);
                        } catch (DeriveException e) {
                            refused++;
                        } catch (Throwable e) {
                            StackTraceElement[] frames = e.getStackTrace();
                            escapes.putIfAbsent(e.getClass().getName() + " at " + (frames.length > 0 ? frames[0] : "?"),
                                    c.location() + ": " + mutated.replace('\n', ' '));
                        }
                        rollBack(session);
                    }
                    try {
                        session.execute(step.sql());
                    } catch (DeriveException expected) {
                        // a step may expect an error, or depend on one its mutated copies changed
                    }
                    rollBack(session);
                }
            }
        }
        escapes.forEach((where, statement) -> System.out.println("escape " + where + ": " + statement));
        System.out.println("done " + run + " " + refused);
    }

    private static void rollBack(Session session) {
        if (session.inTransaction()) {
            session.rollback();
        }
    }

    /** {@code sql} with one to three tokens deleted, repeated, swapped or replaced. */
    static String mutate(String sql, Random random) {
        List<String> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(sql);
        while (m.find()) {
            tokens.add(m.group());
        }
        int changes = 1 + random.nextInt(3);
        for (int i = 0; i < changes && !tokens.isEmpty(); i++) {
            int at = random.nextInt(tokens.size());
            switch (random.nextInt(5)) {
                case 0 -> tokens.remove(at);
                case 1 -> tokens.add(at, tokens.get(random.nextInt(tokens.size())));
                case 2 -> tokens.set(at, REPLACEMENTS[random.nextInt(REPLACEMENTS.length)]);
                case 3 -> tokens.add(at, REPLACEMENTS[random.nextInt(REPLACEMENTS.length)]);
                default -> {
                    int other = random.nextInt(tokens.size());
                    String t = tokens.get(at);
                    tokens.set(at, tokens.get(other));
                    tokens.set(other, t);
                }
            }
        }
        return String.join(" ", tokens);
    }
}
