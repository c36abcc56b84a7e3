package io.derive.cli;

import io.derive.engine.api.Result;
import io.derive.engine.sql.ast.Statement;

import java.io.PrintWriter;

/**
 * Prints what a statement produced: a query's rows as a {@link TextTable} followed by a row
 * count, a write's count of changed rows, and nothing for DDL and transaction control, which
 * report no rows.
 */
final class ResultPrinter {
    private final PrintWriter out;

    ResultPrinter(PrintWriter out) {
        this.out = out;
    }

    void print(Statement statement, Result result) {
        if (!result.columns().isEmpty()) {
            TextTable.render(result).forEach(out::println);
            out.println("(" + rows(result.rows().size()) + ")");
        } else if (statement instanceof Statement.Insert) {
            out.println(rows(result.updateCount()) + " inserted");
        } else if (statement instanceof Statement.Update) {
            out.println(rows(result.updateCount()) + " updated");
        } else if (statement instanceof Statement.Delete) {
            out.println(rows(result.updateCount()) + " deleted");
        }
        out.flush();
    }

    private static String rows(long count) {
        return count + (count == 1 ? " row" : " rows");
    }
}
