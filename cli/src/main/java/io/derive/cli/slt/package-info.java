/**
 * The sqllogictest runner: {@code derive slt FILE…} in the shell, and {@code SqlLogicTest} over
 * the shared corpus in the build.
 *
 * <p>It lives in the shell module because that is the one place both can reach: the shell needs it
 * in main code, the shell already depends on the engine and the memory host (which therefore
 * cannot depend on it back), and the engine stays free of a test tool.
 *
 * <p>Reading a file follows the reference runner: statement records run each of their
 * statements; query results are formatted by the record's column types as SQLite's C API reads
 * them ({@link io.derive.cli.slt.ValueFormat}), sorted by its sort mode, and compared value by
 * value or by MD5; a query that fails while computing rows (a data exception, SQLSTATE class 22)
 * yields no rows, as the reference reads rows until SQLite stops; a failure to compile it fails the
 * record. Records are skipped only by {@code skipif}/{@code onlyif} (we answer to {@code sqlite})
 * and by the trigger rule of {@link io.derive.cli.slt.TriggerExclusion}.
 */
package io.derive.cli.slt;
