package io.derive.bench;

import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Measures one ratio of the benchmark table — a measure ÷ its floor — on a machine whose speed
 * drifts: the two benchmarks run one fork (one JVM) at a time, alternating, and the floor goes
 * first in odd rounds, the measure in even ones, so that a slow spell of the machine falls on both
 * sides alike. Each fork is scored by the median of its iterations; the ratio reported is that of
 * the two sides' medians over forks, beside the median of each round's own ratio.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.derive.bench.AlternatingRuns ROUNDS MEASURE FLOOR [JMH options]
 * </pre>
 *
 * MEASURE and FLOOR are JMH include patterns that select one benchmark each (end them with
 * {@code $}); the JMH options, such as {@code -wi 6 -w 3s -i 5 -r 2s} or {@code -p host=derby},
 * apply to both, and a {@code -f} among them is overridden: every run is one fork. JMH's own
 * output is silenced unless a {@code -v} asks for it.
 */
public final class AlternatingRuns {
    private AlternatingRuns() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        if (args.length < 3) {
            System.err.println("usage: AlternatingRuns ROUNDS MEASURE FLOOR [JMH options]");
            System.exit(2);
        }
        int rounds = Integer.parseInt(args[0]);
        String measure = args[1];
        String floor = args[2];
        CommandLineOptions common = new CommandLineOptions(Arrays.copyOfRange(args, 3, args.length));
        List<Double> measured = new ArrayList<>();
        List<Double> floors = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            boolean floorFirst = round % 2 == 1;
            String first = floorFirst ? floor : measure;
            String second = floorFirst ? measure : floor;
            double a = fork(common, first);
            double b = fork(common, second);
            measured.add(floorFirst ? b : a);
            floors.add(floorFirst ? a : b);
            report(System.out, "round " + round, measured, floors);
        }
        report(System.out, "all " + rounds + " rounds", measured, floors);
    }

    /** One fork of the benchmark {@code pattern} selects, scored by the median of its measured iterations. */
    private static double fork(CommandLineOptions common, String pattern) throws RunnerException {
        return median(measuredScores(common, pattern));
    }

    /** The measured iterations' scores of one fork of the benchmark {@code pattern} selects, in order. */
    static List<Double> measuredScores(CommandLineOptions common, String pattern) throws RunnerException {
        OptionsBuilder options = new OptionsBuilder();
        options.parent(common).include(pattern).forks(1);
        if (!common.verbosity().hasValue()) {
            // the runner's own lines of progress are the rounds' or forks'; JMH's would bury them
            options.verbosity(VerboseMode.SILENT);
        }
        RunResult result = new Runner(options.build()).runSingle();
        List<Double> scores = new ArrayList<>();
        for (BenchmarkResult benchmark : result.getBenchmarkResults()) {
            for (IterationResult iteration : benchmark.getIterationResults()) {
                scores.add(iteration.getPrimaryResult().getScore());
            }
        }
        return scores;
    }

    private static void report(PrintStream out, String label, List<Double> measured, List<Double> floors) {
        List<Double> perRound = new ArrayList<>();
        for (int i = 0; i < measured.size(); i++) {
            perRound.add(measured.get(i) / floors.get(i));
        }
        out.printf(Locale.ROOT, "%s: measure %s | floor %s | ratio of medians %.3f | per round %s, median %.3f%n",
                label, scores(measured), scores(floors), median(measured) / median(floors), scores(perRound),
                median(perRound));
    }

    private static String scores(List<Double> values) {
        StringBuilder text = new StringBuilder();
        for (double v : values) {
            // throughputs in whole operations, times and ratios to four significant digits
            text.append(text.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, v >= 1000 ? "%.0f" : "%.4g", v));
        }
        return text.toString();
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
