package io.derive.engine.exec.ddl;

import io.derive.engine.api.DeriveException;
import io.derive.engine.schema.Tags;
import io.derive.engine.sql.ast.Statement;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code set|add|drop tags (…)} makes of an object's tags, the same for a table, a view and
 * a materialized view (semantics §2). The caller puts the result in the working catalog, so a
 * rollback undoes it like other DDL, and nothing is rebuilt: tags are read by nothing else.
 */
final class TagChanges {
    private TagChanges() {
    }

    /**
     * The tags after {@code change}; {@code owner} names the object in the refusal of a
     * {@code drop tags} naming a key it does not have, which changes nothing.
     */
    static Tags changed(Tags tags, Statement.ViewAction change, String owner) {
        if (change instanceof Statement.PutTags put) {
            return (put.replace() ? Tags.NONE : tags).with(put.tags());
        }
        Statement.DropTags drop = (Statement.DropTags) change;
        Map<String, Object> next = new LinkedHashMap<>(tags.values());
        for (String key : drop.keys()) {
            if (!next.containsKey(key)) {
                throw drop.span().error(DeriveException.UNDEFINED_OBJECT, "no such tag: " + key + " on " + owner);
            }
            next.remove(key);
        }
        return new Tags(next);
    }
}
