package io.derive.cli.slt;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The records a file's run skips because they need statements outside our dialect (semantics §1
 * has no triggers and no {@code REINDEX}). The rule, and the only one:
 * <ol>
 *   <li>a {@code CREATE [TEMP] TRIGGER}, {@code DROP TRIGGER} or {@code REINDEX} statement is skipped;
 *   <li>once a {@code CREATE TRIGGER … ON t} was skipped, every later {@code INSERT}, {@code UPDATE},
 *       {@code DELETE} or {@code REPLACE} on {@code t} in that file is skipped (it would fire the
 *       trigger), until a {@code DROP TABLE t}.
 * </ol>
 * One instance serves one file.
 */
final class TriggerExclusion {
    private static final Pattern UNSUPPORTED = Pattern.compile(
            "\\s*(create\\s+(temp\\s+|temporary\\s+)?trigger|drop\\s+trigger|reindex)\\b.*",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern TRIGGER_TABLE = Pattern.compile(
            "\\s*create\\s+(?:temp\\s+|temporary\\s+)?trigger\\b.*?\\bon\\s+([A-Za-z_][A-Za-z0-9_]*)\\b.*",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern WRITE = Pattern.compile(
            "\\s*(?:insert\\s+(?:or\\s+\\w+\\s+)?into|replace\\s+into|update(?:\\s+or\\s+\\w+)?|delete\\s+from)"
                    + "\\s+([A-Za-z_][A-Za-z0-9_]*)\\b.*",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern DROP_TABLE = Pattern.compile(
            "\\s*drop\\s+table\\s+(?:if\\s+exists\\s+)?([A-Za-z_][A-Za-z0-9_]*)\\b.*",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private final Set<String> tablesWithTriggers = new HashSet<>();

    /** Whether the record with {@code sql} is skipped; remembers what a skipped trigger affects. */
    boolean skips(String sql) {
        if (UNSUPPORTED.matcher(sql).matches()) {
            Matcher trigger = TRIGGER_TABLE.matcher(sql);
            if (trigger.matches()) {
                tablesWithTriggers.add(trigger.group(1).toLowerCase(Locale.ROOT));
            }
            return true;
        }
        Matcher drop = DROP_TABLE.matcher(sql);
        if (drop.matches()) {
            tablesWithTriggers.remove(drop.group(1).toLowerCase(Locale.ROOT));
            return false;
        }
        Matcher write = WRITE.matcher(sql);
        return write.matches() && tablesWithTriggers.contains(write.group(1).toLowerCase(Locale.ROOT));
    }
}
