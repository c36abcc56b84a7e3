package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.CheckConstraint;
import io.derive.engine.sql.Lexer;
import io.derive.engine.sql.Parser;
import io.derive.engine.sql.Token;
import io.derive.engine.sql.TokenKind;
import io.derive.engine.sql.ast.AstWalk;
import io.derive.engine.sql.ast.Expr;
import io.derive.engine.sql.ast.Select;
import io.derive.engine.sql.ast.SourceSpan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Rewrites a CHECK's text for a renamed table, as SQLite does and as foreign keys follow a
 * rename: the tables its subqueries name, and the column qualifiers that name the table (its own
 * table's name, or that of a table a subquery reads without an alias), take the new name. The
 * rewrite works on the condition's own text, so the canonical DDL, the durable catalog and the
 * validators that bind it from that text all see the new name. A check that defines a common
 * table of the old name is left alone: which references meant the table cannot be told.
 */
final class CheckRename {
    private CheckRename() {
    }

    /**
     * The check with {@code oldName} (a table of {@code schema}) renamed to {@code newName}; the
     * same check when it does not name the table.
     *
     * @param ownTable whether the check is the renamed table's own (its columns may be qualified by its name)
     */
    static CheckConstraint renamed(CheckConstraint check, String schema, String oldName, String newName, boolean ownTable) {
        String text = check.sql();
        Expr condition = Parser.parseExpression(text);
        for (Select.CommonTable cte : AstWalk.nodes(condition, Select.CommonTable.class)) {
            if (cte.name().equalsIgnoreCase(oldName)) {
                return check;
            }
        }
        List<SourceSpan> names = new ArrayList<>();
        boolean readWithoutAlias = false;
        for (Select.NamedTable t : AstWalk.nodes(condition, Select.NamedTable.class)) {
            if (t.name().name().equalsIgnoreCase(oldName) && (t.name().schema() == null || t.name().schema().equalsIgnoreCase(schema))) {
                names.add(lastIdentifier(text, t.name().span()));
                readWithoutAlias |= t.alias() == null;
            }
        }
        if (ownTable || readWithoutAlias) {
            for (Expr.ColumnRef ref : AstWalk.nodes(condition, Expr.ColumnRef.class)) {
                if (ref.table() != null && ref.table().equalsIgnoreCase(oldName)) {
                    names.add(firstIdentifier(text, ref.span()));
                }
            }
        }
        if (names.isEmpty()) {
            return check;
        }
        names.sort(Comparator.comparingInt(SourceSpan::offset).reversed());
        String plain = replace(text, names, newName);
        try {
            return check.withCondition(Parser.parseExpression(plain), plain);
        } catch (DeriveException notAnIdentifier) {
            String quoted = replace(text, names, "\"" + newName.replace("\"", "\"\"") + "\"");
            return check.withCondition(Parser.parseExpression(quoted), quoted);
        }
    }

    private static String replace(String text, List<SourceSpan> spans, String name) {
        StringBuilder out = new StringBuilder(text);
        for (SourceSpan s : spans) {
            out.replace(s.offset(), s.offset() + s.length(), name);
        }
        return out.toString();
    }

    /** The span of the last identifier of {@code span} (the table's name after an optional schema). */
    private static SourceSpan lastIdentifier(String text, SourceSpan span) {
        List<Token> tokens = identifiers(text, span);
        return tokens.get(tokens.size() - 1).span();
    }

    /** The span of the first identifier of {@code span} (a column reference's qualifier). */
    private static SourceSpan firstIdentifier(String text, SourceSpan span) {
        return identifiers(text, span).get(0).span();
    }

    /** The identifier tokens of the text under {@code span}, their spans made relative to {@code text}. */
    private static List<Token> identifiers(String text, SourceSpan span) {
        List<Token> found = new ArrayList<>();
        for (Token t : Lexer.tokenize(span.text(text))) {
            if (t.kind() == TokenKind.WORD || t.kind() == TokenKind.QUOTED_IDENTIFIER) {
                SourceSpan s = t.span();
                found.add(new Token(t.kind(), t.text(), new SourceSpan(s.line(), s.column(), span.offset() + s.offset(),
                        s.length())));
            }
        }
        return found;
    }
}
