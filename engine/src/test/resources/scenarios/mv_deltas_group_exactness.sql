-- Where the group arm's algebra stops (semantics §4.2): what deltas would get wrong is recomputed
-- or refused, so the backing of v reports what a fresh evaluation of the body gives.
create table src (id integer primary key, g text, v integer, w text not null);
create index src_g_v on src (g, v);
insert into src values (1, 'a', 1, 'p'), (2, 'a', 2, 'q'), (3, 'b', 3, 'r');

-- case: an integer sum beyond 64 bits fails the statement as a fresh evaluation does
-- derive-only: materialized views
create materialized view v as select g, sum(v) as s from src group by g;
insert into src values (4, 'c', 9223372036854775807, 's');
insert into src values (5, 'c', 1, 's');
-- expect: error integer overflow
select s from v where g = 'c';
-- expect: rows
-- | 9223372036854775807 |

-- case: an integer sum whose positive values pass 64 bits is recomputed in scan order
-- derive-only: materialized views
create materialized view v as select g, sum(v) as s from src group by g;
insert into src values (4, 'c', 9223372036854775807, 's'), (5, 'c', -10, 's');
insert into src values (6, 'c', 5, 's');
-- expect: delta v
-- | update | c | 9223372036854775797 |
-- |     to | c | 9223372036854775802 |

-- case: a real sum is recomputed, not retracted
-- derive-only: materialized views
create table r (id integer primary key, g text, x real);
insert into r values (1, 'a', 0.1), (2, 'a', 0.2), (3, 'a', 1e20);
create materialized view v as select g, sum(x) as s, avg(x) as a from r group by g;
delete from r where id = 3;
-- expect: delta v
-- | update | a | 1.0E20              | 3.333333333333333E19 |
-- |     to | a | 0.30000000000000004 | 0.15000000000000002  |
delete from r where id = 2;
-- expect: delta v
-- | update | a | 0.30000000000000004 | 0.15000000000000002 |
-- |     to | a | 0.1                 | 0.1                 |

-- case: the first of equal extremes in key order wins, as in the body
-- derive-only: materialized views
create index src_g_w on src (g, w collate nocase);
create materialized view v as select g, min(w collate nocase) as lo, max(w collate nocase) as hi from src group by g;
insert into src values (9, 'a', 0, 'P');
-- expect: delta v
update src set id = 0 where id = 9;
-- expect: delta v
-- | update | a | p | q |
-- |     to | a | P | q |
update src set w = 'Q' where id = 0;
-- expect: delta v
-- | update | a | P | q |
-- |     to | a | p | Q |

-- case: a having that turns false deletes the group's row
-- derive-only: materialized views
create materialized view v as select g, count(*) as n, max(v) as hi from src group by g having count(*) > 1;
delete from src where id = 1;
-- expect: delta v
-- | delete | a | 2 | 2 |
insert into src values (4, 'b', 0, 's');
-- expect: delta v
-- | insert | b | 2 | 3 |
