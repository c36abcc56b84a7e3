package io.derive.rar.crash;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parent's record of a run: every transaction a child began (by id and Narayana gtrid) and
 * every one it acknowledged, and the counts the suite prints. Each child's report (the lines
 * before {@code READY}) is checked against it.
 */
final class Ledger {
    private final Map<String, Integer> idByGtrid = new HashMap<>();
    private final Set<Integer> begun = new HashSet<>();
    private final Set<Integer> acknowledged = new HashSet<>();
    private final List<String> problems = new ArrayList<>();

    private int kills;
    private int killsInsideWindow;
    private int replayedCommits;
    private int presumedAborts;
    private int orphans;
    private int checks;

    /** The report of one child after its recovery: the lines it printed up to {@code READY}. */
    static final class Report {
        final List<String> deriveInDoubt = new ArrayList<>();
        final List<String> lines = new ArrayList<>();
    }

    /** Takes in a work line: {@code BEGIN id gtrid} or {@code ACK id}. */
    void absorb(String line) {
        String[] f = line.split(" ");
        switch (f[0]) {
            case XaCrashChild.BEGIN -> {
                begun.add(Integer.parseInt(f[1]));
                idByGtrid.put(f[2], Integer.parseInt(f[1]));
            }
            case XaCrashChild.ACK -> acknowledged.add(Integer.parseInt(f[1]));
            case XaCrashChild.ERROR -> throw new IllegalStateException("the child failed: " + line);
            case XaCrashChild.DONE -> {
                // the check child's last line
            }
            default -> throw new IllegalStateException("unexpected line from the child: " + line);
        }
    }

    void killed() {
        kills++;
    }

    /**
     * Checks a report after a restart: the kill before it was inside Derive's prepare → commit
     * window if Derive listed, before recovery, an in-doubt branch of a transaction the killed
     * child began; both resources hold the same rows; every acknowledged transaction is there and
     * nothing that was never begun; every view equals its body.
     */
    void check(Report report, boolean afterKill) {
        checks++;
        List<Integer> inDoubt = report.deriveInDoubt.stream().filter(idByGtrid::containsKey).map(idByGtrid::get).toList();
        if (afterKill && !inDoubt.isEmpty()) {
            killsInsideWindow++;
        }
        long logged = 0;
        for (String g : report.deriveInDoubt) {
            if (!idByGtrid.containsKey(g)) {
                problems.add("check " + checks + ": Derive lists an in-doubt branch of no begun transaction: " + g);
            }
        }
        Map<Integer, Long> derive = null;
        Map<Integer, Long> derby = null;
        for (String line : report.lines) {
            String[] f = line.split(" ", 4);
            switch (f[0]) {
                case XaCrashChild.LOGGED -> logged = Long.parseLong(f[1]);
                case XaCrashChild.ORPHAN -> orphans++;
                case XaCrashChild.ROWS -> {
                    Map<Integer, Long> rows = rows(f.length > 2 ? f[2] : "");
                    if (f[1].equals(XaCrashChild.DERIVE)) {
                        derive = rows;
                    } else {
                        derby = rows;
                    }
                }
                case XaCrashChild.VIEW -> {
                    if (!Boolean.parseBoolean(f[2])) {
                        problems.add("check " + checks + ": view " + f[1] + " differs from its body");
                    }
                }
                case XaCrashChild.IN_DOUBT -> {
                    // counted above (Derive) or only logged (Derby)
                }
                default -> absorb(line);
            }
        }
        if (derive == null || derby == null) {
            throw new IllegalStateException("a report without both ROWS lines: " + report.lines);
        }
        Set<Integer> ids = new HashSet<>(derive.keySet());
        ids.addAll(derby.keySet());
        for (int id : ids) {
            if (!derive.containsKey(id) || !derby.containsKey(id)) {
                problems.add("check " + checks + ": transaction " + id + " is in " + (derive.containsKey(id) ? "Derive" : "Derby") + " only");
            } else if (!derive.get(id).equals(derby.get(id))) {
                problems.add("check " + checks + ": row " + id + " has amount " + derive.get(id) + " in Derive, " + derby.get(id) + " in Derby");
            }
            if (!begun.contains(id)) {
                problems.add("check " + checks + ": row " + id + " of a transaction never begun");
            }
        }
        // One transaction at a time: a logged decision is the in-doubt transaction's commit, and
        // without one it was never decided, so it must be gone.
        for (int id : inDoubt) {
            boolean present = derive.containsKey(id);
            if (logged > 0) {
                replayedCommits++;
            } else {
                presumedAborts++;
            }
            if (present != (logged > 0)) {
                problems.add("check " + checks + ": in-doubt transaction " + id + (present ? " committed" : " rolled back")
                        + " with " + logged + " transaction(s) in Narayana's log");
            }
        }
        for (int id : acknowledged) {
            if (!derive.containsKey(id) || !derby.containsKey(id)) {
                problems.add("check " + checks + ": acknowledged transaction " + id + " is missing");
            }
        }
    }

    private static Map<Integer, Long> rows(String canonical) {
        Map<Integer, Long> rows = new HashMap<>();
        if (!canonical.isEmpty()) {
            for (String row : canonical.split(";")) {
                String[] f = row.split(":");
                rows.put(Integer.parseInt(f[0]), Long.parseLong(f[1]));
            }
        }
        return rows;
    }

    int kills() {
        return kills;
    }

    int killsInsideWindow() {
        return killsInsideWindow;
    }

    int acknowledged() {
        return acknowledged.size();
    }

    int begun() {
        return begun.size();
    }

    /** In-doubt Derive branches that recovery committed from Narayana's log. */
    int replayedCommits() {
        return replayedCommits;
    }

    /** In-doubt Derive branches without a logged decision, which recovery rolled back. */
    int presumedAborts() {
        return presumedAborts;
    }

    int orphans() {
        return orphans;
    }

    int checks() {
        return checks;
    }

    List<String> problems() {
        return problems;
    }
}
