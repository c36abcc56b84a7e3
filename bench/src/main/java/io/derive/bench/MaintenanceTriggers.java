package io.derive.bench;

import java.util.List;

/**
 * The floor of P3 ({@link DerbyTriggerMaintenanceBenchmark}): the two views of its source kept
 * by hand-written Derby triggers, as a Derby user without Derive would keep them, in plain
 * tables {@code src_projection} ({@code id, v}) and {@code src_groups} ({@code g, n, total}).
 *
 * <p>They are written to be Derby at its best: every trigger is one statement that reaches its
 * target row by primary key; the group table is maintained incrementally (count and sum move by
 * the written row, where Derive recomputes the group), a {@code MERGE} inserts or updates a group
 * in one statement and removes the group whose last row leaves, and an update that keeps the row
 * in its group (the only kind the benchmark makes) fires a single statement, chosen by the
 * trigger's {@code WHEN} clause.
 */
final class MaintenanceTriggers {
    static final String CREATE_PROJECTION = """
            create table src_projection (id bigint primary key, v bigint not null)
            """;
    static final String CREATE_GROUPS = """
            create table src_groups (g bigint primary key, n bigint not null, total bigint not null)
            """;
    /** Fills both tables from a loaded source, before the triggers exist. */
    static final List<String> FILL = List.of(
            "insert into src_projection (id, v) select id, v from src",
            "insert into src_groups (g, n, total) select g, count(*), sum(v) from src group by g");

    /** In creation order, which is the order Derby fires triggers of the same event in. */
    static final List<String> TRIGGERS = List.of("""
            create trigger src_projection_insert after insert on src referencing new as new for each row
            insert into src_projection (id, v) values (new.id, new.v)
            """, """
            create trigger src_projection_update after update on src referencing old as old new as new for each row
            update src_projection set id = new.id, v = new.v where id = old.id
            """, """
            create trigger src_projection_delete after delete on src referencing old as old for each row
            delete from src_projection where id = old.id
            """, """
            create trigger src_groups_insert after insert on src referencing new as new for each row
            merge into src_groups using sysibm.sysdummy1 on src_groups.g = new.g
            when matched then update set n = src_groups.n + 1, total = src_groups.total + new.v
            when not matched then insert (g, n, total) values (new.g, 1, new.v)
            """, """
            create trigger src_groups_update_within after update on src referencing old as old new as new
            for each row when (old.g = new.g)
            update src_groups set total = total - old.v + new.v where g = new.g
            """, """
            create trigger src_groups_update_leave after update on src referencing old as old new as new
            for each row when (old.g <> new.g)
            merge into src_groups using sysibm.sysdummy1 on src_groups.g = old.g
            when matched and src_groups.n = 1 then delete
            when matched then update set n = src_groups.n - 1, total = src_groups.total - old.v
            """, """
            create trigger src_groups_update_enter after update on src referencing old as old new as new
            for each row when (old.g <> new.g)
            merge into src_groups using sysibm.sysdummy1 on src_groups.g = new.g
            when matched then update set n = src_groups.n + 1, total = src_groups.total + new.v
            when not matched then insert (g, n, total) values (new.g, 1, new.v)
            """, """
            create trigger src_groups_delete after delete on src referencing old as old for each row
            merge into src_groups using sysibm.sysdummy1 on src_groups.g = old.g
            when matched and src_groups.n = 1 then delete
            when matched then update set n = src_groups.n - 1, total = src_groups.total - old.v
            """);

    private MaintenanceTriggers() {
    }
}
