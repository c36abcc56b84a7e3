-- Deltas through a cascade (semantics §4): the consumer v, a group over the per-row view base,
-- is maintained from the changes base's backing realized, so its own backing reports only what
-- they change.
create table src (id integer primary key, g text, v integer, w text not null);
insert into src values (1, 'a', 1, 'p'), (2, 'a', 2, 'q'), (3, 'b', 3, 'r');
create materialized view base as select id, g, v from src where v > 1;
create materialized view v as select g, count(*) as n from base group by g;
select name, arm from materialized_views();
-- expect: rows
-- | base | per-row projection |
-- | v    | group recompute    |

-- case: a source write its producer does not realize changes nothing in the consumer
-- derive-only: materialized views
update src set w = 'z';
-- expect: delta base
-- expect: delta v

-- case: a row leaving the producer deletes the consumer's emptied group
-- derive-only: materialized views
update src set v = 0 where id = 2;
-- expect: delta base
-- | delete | 2 | a | 2 |
-- expect: delta v
-- | delete | a | 1 |

-- case: a multi-row write the producer realizes in part is one change of the consumer
-- derive-only: materialized views
insert into src values (4, 'b', 4, 's'), (5, 'b', 0, 's');
-- expect: delta base
-- | insert | 4 | b | 4 |
-- expect: delta v
-- | update | b | 1 |
-- |     to | b | 2 |
