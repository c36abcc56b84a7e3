package io.derive.engine.sql;

import io.derive.engine.api.DeriveException;
import io.derive.engine.sql.ast.Statement;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Parsing of constraints, conflict clauses, upsert, returning, index DDL and pragmas. */
class ConstraintSyntaxTest {

    @Test
    void columnConstraintsBecomeTableConstraintsOnTheColumn() {
        var create = (Statement.CreateTable) Parser.parseStatement(
                "create table c (k int primary key, p int constraint fk references par(id) on delete cascade on update set null"
                        + " unique check (p > 0))");
        var constraints = create.columns().get(1).constraints();
        assertThat(constraints).hasSize(3);
        var fk = (Statement.ForeignKeyDef) constraints.get(0);
        assertThat(fk.name()).isEqualTo("fk");
        assertThat(fk.columns()).containsExactly("p");
        assertThat(fk.parentColumns()).containsExactly("id");
        assertThat(fk.onDelete()).isEqualTo(Statement.ReferentialAction.CASCADE);
        assertThat(fk.onUpdate()).isEqualTo(Statement.ReferentialAction.SET_NULL);
        assertThat(((Statement.CheckDef) constraints.get(2)).sql()).isEqualTo("p > 0");
    }

    @Test
    void tableConstraintsAreParsedInOrder() {
        var create = (Statement.CreateTable) Parser.parseStatement(
                "create table t (a int, b int, primary key (a), unique (b, a), constraint ck check (a < b),"
                        + " foreign key (b) references p match simple)");
        assertThat(create.primaryKey()).extracting(Statement.KeyColumn::name).containsExactly("a");
        assertThat(create.constraints()).hasSize(3);
        assertThat(create.constraints().get(1).name()).isEqualTo("ck");
        assertThat(((Statement.ForeignKeyDef) create.constraints().get(2)).parentColumns()).isEmpty();
    }

    @Test
    void conflictActionsAndReplaceInto() {
        assertThat(((Statement.Insert) Parser.parseStatement("insert or ignore into t values (1)")).onConflict())
                .isEqualTo(Statement.ConflictAction.IGNORE);
        assertThat(((Statement.Insert) Parser.parseStatement("replace into t values (1)")).onConflict())
                .isEqualTo(Statement.ConflictAction.REPLACE);
        assertThat(((Statement.Update) Parser.parseStatement("update or fail t set a = 1")).onConflict())
                .isEqualTo(Statement.ConflictAction.FAIL);
        assertThat(((Statement.Insert) Parser.parseStatement("insert into t values (1)")).onConflict()).isNull();
    }

    @Test
    void upsertWithTargetAndWhere() {
        var insert = (Statement.Insert) Parser.parseStatement(
                "insert into t values (1, 2) on conflict (k) do update set v = excluded.v where v < 3 returning *");
        assertThat(insert.upsert().target()).extracting(Statement.KeyColumn::name).containsExactly("k");
        assertThat(insert.upsert().doNothing()).isFalse();
        assertThat(insert.upsert().where()).isNotNull();
        assertThat(insert.returning()).hasSize(1);
    }

    @Test
    void defaultValuesHasNoRows() {
        var insert = (Statement.Insert) Parser.parseStatement("insert into t default values on conflict do nothing");
        assertThat(insert.rows()).isNull();
        assertThat(insert.select()).isNull();
        assertThat(insert.upsert().doNothing()).isTrue();
    }

    @Test
    void createAndDropIndex() {
        var create = (Statement.CreateIndex) Parser.parseStatement(
                "create unique index if not exists i on t (a collate nocase desc, b) where b > 0");
        assertThat(create.unique()).isTrue();
        assertThat(create.ifNotExists()).isTrue();
        assertThat(create.columns().get(0).collation()).isEqualTo("nocase");
        assertThat(create.columns().get(0).descending()).isTrue();
        assertThat(create.where()).isNotNull();
        var drop = (Statement.DropIndex) Parser.parseStatement("drop index if exists i");
        assertThat(drop.ifExists()).isTrue();
    }

    @Test
    void pragmaReadsAndWrites() {
        assertThat(((Statement.Pragma) Parser.parseStatement("pragma Foreign_Keys")).value()).isNull();
        assertThat(((Statement.Pragma) Parser.parseStatement("pragma foreign_keys = off")).value()).isEqualTo("off");
        assertThat(((Statement.Pragma) Parser.parseStatement("pragma threshold(-5)")).value()).isEqualTo("-5");
    }

    @Test
    void aBadReferentialActionSaysWhatWasExpected() {
        assertThatThrownBy(() -> Parser.parseStatement("create table c (p int references par on delete explode)"))
                .isInstanceOf(DeriveException.class)
                .hasMessageContaining("expected 'cascade', 'restrict', 'no action', 'set null' or 'set default'")
                .hasMessageEndingWith("at 1:48");
    }
}
