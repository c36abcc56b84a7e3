package io.derive.engine.sql;

import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.IndexHint;
import io.derive.engine.sql.ast.QualifiedName;
import io.derive.engine.sql.ast.Select;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Queries: {@code with}, compounds of select cores and {@code values} lists, the from clause with
 * its joins and table references, select items with their aliases, order by and limit.
 */
final class QueryParser {

    private final TokenCursor tokens;
    private final ExpressionParser expressions;

    QueryParser(TokenCursor tokens) {
        this.tokens = tokens;
        this.expressions = new ExpressionParser(tokens, this);
    }

    /** The expression parser this one reads its expressions with, which reads subqueries with this one. */
    ExpressionParser expressions() {
        return expressions;
    }

    /** A whole query: optional {@code with}, a compound of select cores, order by and limit. */
    Select select() {
        tokens.descend(TokenCursor.QUERY_WEIGHT);
        try {
            return query();
        } finally {
            tokens.ascend(TokenCursor.QUERY_WEIGHT);
        }
    }

    private Select query() {
        Token first = tokens.peek();
        List<Select.CommonTable> with = new ArrayList<>();
        boolean recursive = false;
        if (tokens.acceptWord("with")) {
            recursive = tokens.acceptWord("recursive");
            do {
                Token cteStart = tokens.peek();
                String name = tokens.identifier("a common table name");
                List<String> columns = tokens.optionalColumnNames();
                tokens.expectWord("as");
                tokens.expectOperator("(");
                Select query = select();
                tokens.expectOperator(")");
                with.add(new Select.CommonTable(name, columns, query, tokens.spanFrom(cteStart)));
            } while (tokens.acceptOperator(","));
        }
        Select core = selectCore();
        // A values list arrives as a compound of one-row members already.
        List<Select.Compound> compounds = new ArrayList<>(core.compounds());
        while (true) {
            Token opStart = tokens.peek();
            Select.SetOperator op;
            if (tokens.acceptWord("union")) {
                op = tokens.acceptWord("all") ? Select.SetOperator.UNION_ALL : Select.SetOperator.UNION;
            } else if (tokens.acceptWord("intersect")) {
                op = Select.SetOperator.INTERSECT;
            } else if (tokens.acceptWord("except")) {
                op = Select.SetOperator.EXCEPT;
            } else {
                break;
            }
            Select member = selectCore();
            compounds.add(new Select.Compound(op, member, tokens.spanFrom(opStart)));
        }
        List<Select.OrderTerm> orderBy = new ArrayList<>();
        if (tokens.acceptWord("order")) {
            tokens.expectWord("by");
            do {
                Token termStart = tokens.peek();
                Expr e = expressions.expr();
                boolean descending = tokens.direction();
                Boolean nullsFirst = null;
                if (tokens.acceptWord("nulls")) {
                    if (tokens.acceptWord("first")) {
                        nullsFirst = true;
                    } else {
                        tokens.expectWord("last");
                        nullsFirst = false;
                    }
                }
                orderBy.add(new Select.OrderTerm(e, descending, nullsFirst, tokens.spanFrom(termStart)));
            } while (tokens.acceptOperator(","));
        }
        Expr limit = null;
        Expr offset = null;
        if (tokens.acceptWord("limit")) {
            limit = expressions.expr();
            if (tokens.acceptWord("offset")) {
                offset = expressions.expr();
            } else if (tokens.acceptOperator(",")) {
                // SQLite's "limit offset, count"
                offset = limit;
                limit = expressions.expr();
            }
        }
        return new Select(with, recursive, core.distinct(), core.items(), core.from(), core.where(), core.groupBy(),
                core.having(), compounds, orderBy, limit, offset, tokens.spanFrom(first));
    }

    /** {@code select [distinct] items [from] [where] [group by [having]]}, or {@code values (…), …}. */
    private Select selectCore() {
        Token first = tokens.peek();
        if (tokens.acceptWord("values")) {
            return valuesCore(first);
        }
        tokens.expectWord("select");
        boolean distinct = tokens.acceptWord("distinct");
        if (!distinct) {
            tokens.acceptWord("all");
        }
        List<Select.SelectItem> items = new ArrayList<>();
        do {
            items.add(selectItem());
        } while (tokens.acceptOperator(","));
        Select.TableRef from = tokens.acceptWord("from") ? fromClause() : null;
        Expr where = tokens.acceptWord("where") ? expressions.expr() : null;
        List<Expr> groupBy = new ArrayList<>();
        Expr having = null;
        if (tokens.acceptWord("group")) {
            tokens.expectWord("by");
            groupBy = expressions.exprList();
        }
        if (tokens.acceptWord("having")) {
            having = expressions.expr();
        }
        return new Select(List.of(), false, distinct, items, from, where, groupBy, having, List.of(), List.of(),
                null, null, tokens.spanFrom(first));
    }

    /** {@code values (…), (…)} as a query: a union all of one-row selects with columns column1, column2, …. */
    private Select valuesCore(Token first) {
        List<List<Expr>> rows = new ArrayList<>();
        do {
            tokens.expectOperator("(");
            rows.add(expressions.exprList());
            tokens.expectOperator(")");
        } while (tokens.acceptOperator(","));
        List<Select.Compound> compounds = new ArrayList<>();
        Select head = null;
        for (List<Expr> row : rows) {
            if (row.size() != rows.get(0).size()) {
                throw TokenCursor.error("all VALUES must have the same number of terms", first);
            }
            List<Select.SelectItem> items = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                items.add(new Select.Column(row.get(i), "column" + (i + 1), row.get(i).span()));
            }
            Select core = new Select(List.of(), false, false, items, null, null, List.of(), null, List.of(),
                    List.of(), null, null, tokens.spanFrom(first));
            if (head == null) {
                head = core;
            } else {
                compounds.add(new Select.Compound(Select.SetOperator.UNION_ALL, core, core.span()));
            }
        }
        return new Select(List.of(), false, false, head.items(), null, null, List.of(), null, compounds,
                List.of(), null, null, tokens.spanFrom(first));
    }

    private Select.TableRef fromClause() {
        Select.TableRef left = tableRef();
        while (true) {
            Token joinStart = tokens.peek();
            if (tokens.acceptOperator(",")) {
                Select.TableRef right = tableRef();
                left = new Select.Join(left, Select.JoinKind.CROSS, false, right, null, List.of(),
                        tokens.spanFrom(joinStart));
                continue;
            }
            boolean natural = tokens.acceptWord("natural");
            Select.JoinKind kind = joinKind();
            if (kind == null) {
                if (natural) {
                    throw tokens.expected("'join'");
                }
                return left;
            }
            Select.TableRef right = tableRef();
            Expr condition = null;
            List<String> using = new ArrayList<>();
            if (!natural && tokens.acceptWord("on")) {
                condition = expressions.expr();
            } else if (!natural && tokens.acceptWord("using")) {
                tokens.expectOperator("(");
                do {
                    using.add(tokens.identifier("a column name"));
                } while (tokens.acceptOperator(","));
                tokens.expectOperator(")");
            }
            left = new Select.Join(left, kind, natural, right, condition, using, tokens.spanFrom(joinStart));
        }
    }

    /** The join keyword sequence at the cursor, consumed; null when there is none. */
    private Select.JoinKind joinKind() {
        if (tokens.acceptWord("join")) {
            return Select.JoinKind.INNER;
        }
        Select.JoinKind kind;
        if (tokens.acceptWord("inner")) {
            kind = Select.JoinKind.INNER;
        } else if (tokens.acceptWord("cross")) {
            kind = Select.JoinKind.CROSS;
        } else if (tokens.acceptWord("left")) {
            kind = Select.JoinKind.LEFT;
        } else if (tokens.acceptWord("right")) {
            kind = Select.JoinKind.RIGHT;
        } else if (tokens.acceptWord("full")) {
            kind = Select.JoinKind.FULL;
        } else {
            return null;
        }
        if (kind == Select.JoinKind.LEFT || kind == Select.JoinKind.RIGHT || kind == Select.JoinKind.FULL) {
            tokens.acceptWord("outer");
        }
        tokens.expectWord("join");
        return kind;
    }

    Select.SelectItem selectItem() {
        Token first = tokens.peek();
        if (tokens.acceptOperator("*")) {
            return new Select.Star(null, tokens.spanFrom(first));
        }
        if (TokenCursor.isIdentifier(tokens.peek()) && tokens.peek(1).isOperator(".")
                && tokens.peek(2).isOperator("*")) {
            String table = tokens.identifier("a table name");
            tokens.next();
            tokens.next();
            return new Select.Star(table, tokens.spanFrom(first));
        }
        Expr e = expressions.expr();
        String alias = alias();
        return new Select.Column(e, alias, tokens.spanFrom(first));
    }

    private Select.TableRef tableRef() {
        Token first = tokens.peek();
        boolean lateral = tokens.acceptWord("lateral");
        if (tokens.peek().isOperator("(")) {
            tokens.next();
            if (tokens.peek().isWord("select") || tokens.peek().isWord("with") || tokens.peek().isWord("values")) {
                Select query = select();
                tokens.expectOperator(")");
                return new Select.Subquery(query, alias(), lateral, tokens.spanFrom(first));
            }
            if (lateral) {
                throw tokens.expected("a subquery");
            }
            Select.TableRef inner = fromClause();
            tokens.expectOperator(")");
            return inner;
        }
        if (TokenCursor.isIdentifier(tokens.peek()) && tokens.peek(1).isOperator("(")) {
            String name = tokens.identifier("a table function name");
            tokens.next();
            List<Expr> args = tokens.peek().isOperator(")") ? List.of() : expressions.exprList();
            tokens.expectOperator(")");
            return new Select.TableFunction(name.toLowerCase(Locale.ROOT), args, alias(), lateral,
                    tokens.spanFrom(first));
        }
        if (lateral) {
            throw tokens.expected("a table function or subquery after 'lateral'");
        }
        QualifiedName name = tokens.qualifiedName();
        String alias = alias();
        return new Select.NamedTable(name, alias, indexHint(), tokens.spanFrom(first));
    }

    /** {@code indexed by name}, {@code not indexed}, or nothing. */
    IndexHint indexHint() {
        if (tokens.peek().isWord("not") && tokens.peek(1).isWord("indexed")) {
            tokens.next();
            tokens.next();
            return IndexHint.NOT_INDEXED;
        }
        if (tokens.peek().isWord("indexed") && tokens.peek(1).isWord("by")) {
            tokens.next();
            tokens.next();
            Token at = tokens.peek();
            String index = tokens.identifier("an index name");
            return new IndexHint.IndexedBy(index, tokens.spanFrom(at));
        }
        return IndexHint.ANY;
    }

    private String alias() {
        if (tokens.acceptWord("as")) {
            return tokens.identifier("an alias");
        }
        Token t = tokens.peek();
        if (t.isWord("indexed") && tokens.peek(1).isWord("by")) {
            return null;
        }
        if (t.kind() == TokenKind.QUOTED_IDENTIFIER
                || (t.kind() == TokenKind.WORD && !TokenCursor.isReserved(t.text().toLowerCase(Locale.ROOT)))) {
            return tokens.next().text();
        }
        return null;
    }
}
