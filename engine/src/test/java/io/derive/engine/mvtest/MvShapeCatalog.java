package io.derive.engine.mvtest;

import java.util.List;
import java.util.Set;

/**
 * The sources and the MV bodies of the differential test. Every world holds the same three small
 * source tables: {@code a} (the main table, nullable group columns, a NOT NULL text), {@code b}
 * (referencing {@code a} with {@code on delete cascade}) and {@code c} (a lookup and fan-out
 * table), with indexes that lead with group columns. The shapes cover the arms the engine has and
 * the bodies that fall to the floor.
 */
public final class MvShapeCatalog {

    public static final List<String> SOURCE_DDL = List.of(
            "create table a (id integer primary key, g text, h integer, v integer, w text not null)",
            "create table b (id integer primary key, a_id integer not null references a(id) on delete cascade,"
                    + " x integer, tag text)",
            "create table c (k integer primary key, n integer not null)",
            // Group columns followed by an aggregated column: the group arm seeks retracted extremes here.
            "create index a_g_v on a (g, v)",
            "create index a_h_v on a (h, v desc)",
            "create index a_gh_v on a (g, h, v)",
            "create index a_g_w on a (g, w collate nocase)",
            "create index b_a_x on b (a_id, x)");

    private static final List<MvShape> SHAPES = List.of(
            // per-row projection
            MvShape.both("proj", "p_all", "select id, g, h, v, w from a"),
            MvShape.both("proj", "p_filter", "select id, v from a where v > 5"),
            MvShape.both("proj", "p_expr", "select id, v * 2 + 1 as e, upper(w) as uw, coalesce(g, 'none') as cg,"
                    + " case when v is null then -1 else v % 3 end as m, v / 3 as q from a where h is not null"),
            MvShape.both("proj", "p_or", "select id, g, h from a where g = 'x' or h between 2 and 3"),
            MvShape.both("proj", "p_b", "select id, a_id, x from b where tag is not null"),
            MvShape.both("proj", "p_c", "select k, n * 10 as n10 from c where n <> 2"),
            // group recompute, one world per handful of aggregates
            MvShape.both("group1", "g_count", "select g, count(*) as n from a group by g"),
            MvShape.both("group1", "g_countcol", "select g, count(v) as n, count(distinct v) as d from a group by g"),
            MvShape.both("group1", "g_sum", "select g, sum(v) as s, total(v) as t from a group by g"),
            MvShape.both("group1", "g_avg", "select h, avg(v) as av, count(*) as n from a group by h"),
            MvShape.both("group1", "g_minmax", "select g, min(v) as lo, max(v) as hi, min(w) as wlo from a group by g"),
            MvShape.both("group2", "g_concat", "select g, group_concat(w) as ws from a group by g").withListColumn(1),
            MvShape.both("group2", "g_two", "select g, h, count(*) as n, sum(v) as s, max(v) as hi from a group by g, h"),
            MvShape.both("group2", "g_having", "select g, count(*) as n from a group by g having count(*) > 2"),
            MvShape.both("group2", "g_having2", "select h, max(v) as hi from a group by h having sum(v) > 10"),
            MvShape.both("group2", "g_b", "select a_id, count(*) as n, min(x) as lo, sum(x) as s from b group by a_id"),
            MvShape.both("group2", "g_filter", "select g, count(*) as n, avg(v) as av from a where v >= 0 group by g"),
            // the group arm's fast path: extremes retracted and sought through the indexes above,
            // NULL arguments, summed reals and text (published by recompute), ties under nocase
            MvShape.both("group3", "g_seek", "select g, count(*) as n, min(v) as lo, max(v) as hi, sum(v) as s,"
                    + " avg(v) as av from a group by g"),
            MvShape.both("group3", "g_seek_desc", "select h, min(v) as lo, max(v) as hi, total(v) as t from a group by h"),
            MvShape.both("group3", "g_seek_where", "select g, min(v) as lo, max(v) as hi, count(*) as n from a"
                    + " where w <> 'q' group by g"),
            MvShape.both("group3", "g_seek_two", "select h, g, min(v) as lo, max(v) as hi from a group by h, g"),
            MvShape.both("group3", "g_seek_having", "select g, max(v) as hi from a group by g having min(v) < 3"),
            MvShape.both("group3", "g_real", "select g, sum(v * 0.5) as s, total(w) as t, avg(w) as av, count(w) as c,"
                    + " min(w) as lo, max(w) as hi from a group by g"),
            MvShape.both("group3", "g_b_seek", "select a_id, min(x) as lo, max(x) as hi, count(x) as c, sum(x) as s"
                    + " from b group by a_id"),
            // SQLite may scan a group in another order, and which of 'p' and 'P' wins a tie depends on it
            new MvShape("g_nocase", "group3", "select g, min(w collate nocase) as lo, max(w collate nocase) as hi,"
                    + " count(*) as n from a group by g", null, Set.of()),
            // joins and subqueries (full rebuild today)
            MvShape.both("join", "j_inner", "select b.id, b.x, a.v, a.g from b join a on a.id = b.a_id"),
            MvShape.both("join", "j_left", "select a.id, a.v, c.n from a left join c on c.k = a.h"),
            // ordered 1:1 joins: driving-table writes applied row by row, the order by leading the backing's key
            // (which never holds NULL, hence the filters)
            MvShape.both("join", "j_inner_ordered", "select b.x, b.id, a.v from b join a on a.id = b.a_id where b.x is not null order by b.x"),
            MvShape.both("join", "j_left_ordered", "select a.v, a.id, c.n from a left join c on c.k = a.h where a.v is not null order by a.v desc"),
            MvShape.both("join", "j_inner_c", "select a.id, a.g, c.n from a join c on c.k = a.h where c.n > 0"),
            MvShape.both("join", "j_exists", "select id, v from a where exists (select 1 from b where b.a_id = a.id)"),
            MvShape.both("join", "j_cte", "with t as (select id, v from a where v > 1) select id, v from t"),
            MvShape.both("join", "j_derived", "select g, n from (select g, count(*) as n from a group by g) d where n > 1"),
            // set operations, distinct, scalar aggregates
            MvShape.both("set", "s_union", "select id from a union select k from c"),
            MvShape.both("set", "s_union2", "select id, g as t from a where v > 3 union select id, tag from b"),
            MvShape.both("set", "s_intersect", "select id from a intersect select k from c"),
            MvShape.both("set", "s_except", "select id from a except select a_id from b"),
            MvShape.both("set", "s_distinct", "select distinct g from a"),
            MvShape.both("set", "s_distinct2", "select distinct g, h from a"),
            MvShape.both("set", "s_scalar", "select count(*) as n, sum(v) as s, max(v) as m from a"),
            MvShape.both("set", "s_scalar_b", "select count(distinct a_id) as n, total(x) as t from b"),
            // lateral fan-out and order-by keys
            new MvShape("l_series", "lateral", "select c.k, f.value from c cross join lateral generate_series(1, c.n) f",
                    null, Set.of()),
            MvShape.both("lateral", "o_w", "select id, w, v from a order by w"),
            MvShape.both("lateral", "o_w_desc", "select id, g, w from a where v > 2 order by w desc, id"),
            MvShape.both("lateral", "o_group", "select g, count(*) as n from a group by g order by n"),
            MvShape.both("lateral", "o_group_key", "select h, sum(v) as s from a group by h order by h desc"),
            // grouping over joins, expression aggregates, subqueries in the projection, limits
            MvShape.both("mixed", "x_group_join", "select a.g, count(*) as n, sum(b.x) as s from b join a on a.id = b.a_id group by a.g"),
            MvShape.both("mixed", "x_expr_agg", "select g, sum(v * h) as s, max(w || coalesce(g, '-')) as m, min(v % 4) as r from a group by g"),
            MvShape.both("mixed", "x_distinct_expr", "select distinct v % 3 as m, h is null as hn from a"),
            MvShape.both("mixed", "x_scalar_sub", "select id, (select count(*) from b where b.a_id = a.id) as nb from a"),
            MvShape.both("mixed", "x_limit", "select id, w from a order by w, id limit 5"),
            MvShape.both("mixed", "x_case_filter", "select id, case when v > 5 then 'hi' when v > 0 then 'lo' else 'neg' end as band"
                    + " from a where w in ('p', 'q') and v is not null"),
            // MV over MV chains, mixing arms
            MvShape.both("chain", "m_base", "select id, g, v from a where v is not null"),
            MvShape.both("chain", "m_grp", "select g, count(*) as n, sum(v) as s from m_base group by g"),
            MvShape.both("chain", "m_top", "select g, n, s from m_grp where n > 1"),
            MvShape.both("chain", "m_dist", "select distinct g from m_base"),
            MvShape.both("chain", "m_cnt", "select count(*) as n from m_dist"),
            MvShape.both("chain", "m_join", "select m.id, m.v, c.n from m_base m join c on c.k = m.id"),
            MvShape.both("chain", "m_b", "select id, a_id, x from b where x is not null"),
            MvShape.both("chain", "m_bgrp", "select a_id, max(x) as hi from m_b group by a_id"));

    private MvShapeCatalog() {
    }

    /** Every shape, in creation order (a chain's producers before its consumers). */
    public static List<MvShape> shapes() {
        return SHAPES;
    }

    /** The world names, in first-appearance order. */
    public static List<String> worlds() {
        return SHAPES.stream().map(MvShape::world).distinct().toList();
    }

    public static List<MvShape> shapesOf(String world) {
        return SHAPES.stream().filter(s -> s.world().equals(world)).toList();
    }
}
