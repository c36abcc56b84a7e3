package io.derive.it.load;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * One transaction a worker asks for: a write of one row (its {@code kind} and arguments, as the
 * test module's {@code LoadBean.transact} takes them) and the ledger row {@code tx}.
 */
record Write(long tx, String kind, Map<String, String> args) {

    Write {
        args = Map.copyOf(args);
    }

    /** The query string of {@code /derive-test/load?op=transact}, after {@code p=…&worker=…}. */
    String query() {
        StringBuilder q = new StringBuilder("&tx=").append(tx).append("&kind=").append(kind);
        new TreeMap<>(args).forEach((name, value) -> q.append('&').append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return q.toString();
    }

    long id() {
        return Long.parseLong(args.get("id"));
    }

    String arg(String name) {
        return args.get(name);
    }
}
