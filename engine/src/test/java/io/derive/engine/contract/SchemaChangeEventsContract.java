package io.derive.engine.contract;

import io.derive.engine.Derive;
import io.derive.engine.schema.SchemaChangeListener;
import io.derive.engine.schema.TableSchema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** DDL fires table events to the listeners of the database, once per successful statement. */
public abstract class SchemaChangeEventsContract extends HostContractTest {
    private final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void listen() {
        session.close();
        db.close();
        db = Derive.open(config().withSchemaChangeListener(new SchemaChangeListener() {
            @Override
            public void tableAdded(TableSchema table) {
                events.add("added " + table.name());
            }

            @Override
            public void tableModified(TableSchema before, TableSchema after) {
                events.add("modified " + before.name() + " -> " + after.name() + " " + after.columnNames());
            }

            @Override
            public void tableRemoved(TableSchema table) {
                events.add("removed " + table.name());
            }
        }));
        session = db.openSession();
    }

    @Test
    void createAlterRenameAndDropFireOneEventEach() {
        script("""
                create table t (k integer primary key);
                insert into t values (1);
                alter table t add column v text;
                alter table t rename to u;
                drop table u;
                """);
        assertThat(events).containsExactly("added t", "modified t -> t [k, v]", "modified t -> u [k, v]", "removed u");
    }

    @Test
    void aFailingStatementFiresNothing() {
        script("create table t (k integer primary key, v text)");
        events.clear();
        assertThatThrownBy(() -> session.execute("alter table t add column k text"))
                .hasMessageContaining("duplicate column name: k");
        assertThatThrownBy(() -> session.execute("create table t (k integer primary key)"))
                .hasMessageContaining("already exists");
        assertThat(events).isEmpty();
    }

    @Test
    void aRolledBackStatementFiresNothing() {
        script("""
                create table t (k integer primary key, v text);
                insert into t values (1, 'many');
                """);
        events.clear();
        session.begin();
        assertThatThrownBy(() -> session.execute("alter table t alter column v set data type integer"))
                .hasMessageContaining("text value 'many'");
        session.rollback();
        assertThat(events).isEmpty();
    }

    @Test
    void eventsFireWhenTheStatementSucceedsInsideATransaction() {
        session.begin();
        session.execute("create table t (k integer primary key)");
        assertThat(events).containsExactly("added t");
        session.rollback();
    }
}
