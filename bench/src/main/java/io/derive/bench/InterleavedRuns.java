package io.derive.bench;

import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static io.derive.bench.AlternatingRuns.measuredScores;
import static io.derive.bench.AlternatingRuns.median;

/**
 * Measures one ratio of the benchmark table — a measure ÷ its floor — from a benchmark that
 * writes both in one JVM, alternating iteration by iteration, the measure in even measured
 * iterations and the floor in odd ones ({@link PerRowMaintenanceBenchmark} with
 * {@code -p side=alternating}). Each pair of neighbouring iterations gives a ratio, so that a
 * spell in which the machine runs slow falls on both sides of most pairs; the figure is the median
 * of the pairs' ratios over all forks, reported beside each fork's own median and the two sides'
 * median scores.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.derive.bench.InterleavedRuns FORKS BENCHMARK [JMH options]
 * </pre>
 *
 * BENCHMARK is a JMH include pattern that selects one benchmark (end it with {@code $}); the JMH
 * options, such as {@code -p side=alternating -wi 10 -w 1s -i 20 -r 1s}, apply to each fork, and
 * a {@code -f} among them is overridden by FORKS. An odd count of measured iterations leaves the
 * last one unpaired. JMH's own output is silenced unless a {@code -v} asks for it.
 */
public final class InterleavedRuns {
    private InterleavedRuns() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        if (args.length < 2) {
            System.err.println("usage: InterleavedRuns FORKS BENCHMARK [JMH options]");
            System.exit(2);
        }
        int forks = Integer.parseInt(args[0]);
        CommandLineOptions common = new CommandLineOptions(Arrays.copyOfRange(args, 2, args.length));
        List<Double> allPairs = new ArrayList<>();
        List<Double> measures = new ArrayList<>();
        List<Double> floors = new ArrayList<>();
        for (int fork = 1; fork <= forks; fork++) {
            List<Double> scores = measuredScores(common, args[1]);
            List<Double> pairs = new ArrayList<>();
            List<Double> measure = new ArrayList<>();
            List<Double> floor = new ArrayList<>();
            for (int i = 0; i + 1 < scores.size(); i += 2) {
                measure.add(scores.get(i));
                floor.add(scores.get(i + 1));
                pairs.add(scores.get(i) / scores.get(i + 1));
            }
            allPairs.addAll(pairs);
            measures.addAll(measure);
            floors.addAll(floor);
            System.out.printf(Locale.ROOT, "fork %d: measure %.4g | floor %.4g | median of %d pairs %.3f (%.3f–%.3f)%n",
                    fork, median(measure), median(floor), pairs.size(), median(pairs),
                    pairs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                    pairs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
        }
        System.out.printf(Locale.ROOT, "all %d forks: measure %.4g | floor %.4g | median of %d pairs %.3f%n",
                forks, median(measures), median(floors), allPairs.size(), median(allPairs));
    }
}
