package io.derive.cli.slt;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a query record expects: its values one by one, or their count and MD5 hash. */
sealed interface ExpectedResult {
    Pattern HASH_LINE = Pattern.compile("(\\d+) values hashing to ([0-9a-f]{32})");

    /** The result lines after {@code ----} (none when the record has no {@code ----}). */
    static ExpectedResult of(List<String> lines) {
        if (lines.size() == 1) {
            Matcher m = HASH_LINE.matcher(lines.get(0).trim());
            if (m.matches()) {
                return new Hashed(Integer.parseInt(m.group(1)), m.group(2));
            }
        }
        return new Values(List.copyOf(lines));
    }

    /** The values, one a line, in the order the record's sort mode gives them. */
    record Values(List<String> lines) implements ExpectedResult {
    }

    /** {@code N values hashing to MD5}. */
    record Hashed(int count, String md5) implements ExpectedResult {
    }
}
