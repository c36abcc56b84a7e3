-- Materialized views: the maintenance arms of semantics §4, their choice and what each keeps equal.
create table t (k integer primary key, g text, v integer, w text not null);
create table u (id integer primary key, k integer not null references t(k), x integer);
insert into t values (1, 'a', 10, 'p'), (2, 'a', 20, 'q'), (3, 'b', null, 'r'), (4, null, 5, 's');
insert into u values (1, 1, 100), (2, 2, 200);

-- case: arm of a filtered projection
-- derive-only: materialized views
create materialized view mv as select k, v * 2 as d from t where v > 6;
select arm from materialized_views();
-- expect: rows
-- | per-row projection |

-- case: arm of a group by
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n from t group by g having count(*) > 1;
select arm from materialized_views();
-- expect: rows
-- | group recompute |

-- case: arm of a union
-- derive-only: materialized views
create materialized view mv as select k from t union select id from u;
select arm from materialized_views();
-- expect: rows
-- | full rebuild |

-- case: arm of distinct
-- derive-only: materialized views
create materialized view mv as select distinct g from t;
select arm from materialized_views();
-- expect: rows
-- | full rebuild |

-- case: arm of a scalar aggregate
-- derive-only: materialized views
create materialized view mv as select count(*) as n from t;
select arm from materialized_views();
-- expect: rows
-- | full rebuild |

-- case: arm of a group by ordered by an aggregate
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n from t group by g order by n;
select arm from materialized_views();
-- expect: rows
-- | full rebuild |

-- case: arm of a 1:1 inner join
-- derive-only: materialized views
create materialized view mv as select u.id, u.x, t.g from u join t on t.k = u.k;
select arm from materialized_views();
-- expect: rows
-- | 1:1 join |

-- case: arm of a lateral fan-out
-- derive-only: materialized views
create materialized view mv as select t.k, f.value from t cross join lateral generate_series(1, t.v) f;
select arm from materialized_views();
-- expect: rows
-- | lateral fan-out |

-- case: explain shows the arm
-- derive-only: materialized views
explain create materialized view mv as select k, v from t where v > 6;
-- expect: rows (ordered)
-- | project k, v |
-- | '  filter (v > affinity(6))' |
-- | '    scan main.t' |
-- | maintenance: per-row projection |

-- case: explain does not create
-- derive-only: materialized views
explain create materialized view mv as select distinct g from t;
select count(*) from materialized_views();
-- expect: rows
-- | 0 |

-- case: per-row change is visible mid-statement to a subquery
-- derive-only: materialized views
create materialized view mv as select k, v from t;
insert into t select k + 10, g, v, w from t where k in (select k from mv);
select count(*) from mv;
-- expect: rows
-- | 8 |

-- case: projection with row-local functions
-- derive-only: materialized views
create materialized view mv as select k, upper(w) as uw, coalesce(g, '-') as cg, length(w) + v as n from t;
update t set w = 'zz', g = null where k = 1;
select * from mv where k = 1;
-- expect: rows
-- | 1 | ZZ | - | 12 |

-- case: projection predicate with null
-- derive-only: materialized views
create materialized view mv as select k from t where g is null or v is null;
update t set g = 'c' where k = 4;
update t set v = null where k = 1;
select k from mv;
-- expect: rows
-- | 1 |
-- | 3 |

-- case: group count and sum follow writes
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n, sum(v) as s from t group by g;
insert into t values (5, 'b', 7, 'x');
update t set v = v + 1 where g = 'a';
delete from t where k = 4;
select * from mv;
-- expect: rows
-- | a | 2 | 32 |
-- | b | 2 | 7  |

-- case: empty group disappears
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n from t group by g;
delete from t where g = 'b';
select g from mv;
-- expect: rows
-- | NULL |
-- | a    |

-- case: null group key is a group
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n from t group by g;
insert into t values (5, null, 1, 'x');
select n from mv where g is null;
-- expect: rows
-- | 2 |

-- case: min retracted when the extreme leaves
-- derive-only: materialized views
create materialized view mv as select g, min(v) as lo, max(v) as hi from t group by g;
delete from u where k = 1;
delete from t where k = 1;
select lo, hi from mv where g = 'a';
-- expect: rows
-- | 20 | 20 |

-- case: max retracted by an update
-- derive-only: materialized views
create materialized view mv as select g, min(v) as lo, max(v) as hi from t group by g;
update t set v = 1 where k = 2;
select lo, hi from mv where g = 'a';
-- expect: rows
-- | 1 | 10 |

-- case: avg from sum and count
-- derive-only: materialized views
create materialized view mv as select g, avg(v) as av from t group by g;
insert into t values (5, 'a', 0, 'x');
select av from mv where g = 'a';
-- expect: rows
-- | 10.0 |

-- case: avg and sum of only nulls
-- derive-only: materialized views
create materialized view mv as select g, avg(v) as av, sum(v) as s, total(v) as tt, count(v) as c from t group by g;
select av, s, tt, c from mv where g = 'b';
-- expect: rows
-- | NULL | NULL | 0.0 | 0 |

-- case: count distinct follows writes
-- derive-only: materialized views
create materialized view mv as select g, count(distinct v) as d from t group by g;
update t set v = 10 where k = 2;
select d from mv where g = 'a';
-- expect: rows
-- | 1 |

-- case: group_concat follows writes
-- derive-only: materialized views
create materialized view mv as select g, group_concat(w) as ws from t where g = 'b' group by g;
update t set w = 'z' where k = 3;
select ws from mv;
-- expect: rows
-- | z |

-- case: having admits a group when it grows
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n from t group by g having count(*) >= 2;
insert into t values (5, 'b', 1, 'x');
select g, n from mv;
-- expect: rows
-- | a | 2 |
-- | b | 2 |

-- case: having drops a group when it shrinks
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n from t group by g having count(*) >= 2;
delete from u;
delete from t where k = 2;
select count(*) from mv;
-- expect: rows
-- | 0 |

-- case: group by two columns
-- derive-only: materialized views
create materialized view mv as select g, w, count(*) as n from t group by g, w;
update t set w = 'p' where k = 2;
select g, w, n from mv where g = 'a';
-- expect: rows
-- | a | p | 2 |

-- case: group key moves with an update of the grouped column
-- derive-only: materialized views
create materialized view mv as select g, sum(v) as s from t group by g;
update t set g = 'b' where k = 1;
select * from mv;
-- expect: rows
-- | NULL | 5  |
-- | a    | 20 |
-- | b    | 10 |

-- case: scalar aggregate over an emptied table
-- derive-only: materialized views
create materialized view mv as select count(*) as n, sum(v) as s, max(v) as m from t;
delete from u;
delete from t;
select * from mv;
-- expect: rows
-- | 0 | NULL | NULL |

-- case: distinct follows deletes
-- derive-only: materialized views
create materialized view mv as select distinct g from t;
delete from u;
delete from t where g = 'a';
select g from mv;
-- expect: rows
-- | NULL |
-- | b    |

-- case: union follows both sides
-- derive-only: materialized views
create materialized view mv as select k from t where v > 5 union select k from u;
delete from u where id = 2;
update t set v = 0 where k = 2;
select k from mv;
-- expect: rows
-- | 1 |

-- case: intersect follows writes
-- derive-only: materialized views
create materialized view mv as select k from t intersect select k from u;
insert into u values (3, 3, 0);
select k from mv;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |

-- case: except follows writes
-- derive-only: materialized views
create materialized view mv as select k from t except select k from u;
delete from u where k = 1;
select k from mv;
-- expect: rows
-- | 1 |
-- | 3 |
-- | 4 |

-- case: inner join follows the lookup side
-- derive-only: materialized views
create materialized view mv as select u.id, u.x, t.g from u join t on t.k = u.k;
update t set g = 'z' where k = 1;
select id, g from mv;
-- expect: rows
-- | 1 | z |
-- | 2 | a |

-- case: left join fills and clears the nullable side
-- derive-only: materialized views
create materialized view mv as select t.k, u.x from t left join u on u.id = t.k;
insert into u values (3, 3, 300);
delete from u where id = 1;
select k, x from mv;
-- expect: rows
-- | 1 | NULL |
-- | 2 | 200  |
-- | 3 | 300  |
-- | 4 | NULL |

-- case: exists subquery follows the inner table
-- derive-only: materialized views
create materialized view mv as select k from t where exists (select 1 from u where u.k = t.k);
delete from u where id = 1;
select k from mv;
-- expect: rows
-- | 2 |

-- case: in subquery follows the inner table
-- derive-only: materialized views
create materialized view mv as select k, v from t where k not in (select k from u);
insert into u values (3, 3, 0);
select k from mv;
-- expect: rows
-- | 4 |

-- case: lateral generate_series fans out
-- derive-only: materialized views
create table c (k integer primary key, n integer not null);
insert into c values (1, 2), (2, 1);
create materialized view mv as select c.k, f.value from c cross join lateral generate_series(1, c.n) f;
update c set n = 3 where k = 2;
delete from c where k = 1;
select * from mv;
-- expect: rows
-- | 2 | 1 |
-- | 2 | 2 |
-- | 2 | 3 |

-- case: order by chooses the scan order
-- derive-only: materialized views
create materialized view mv as select k, w from t order by w desc;
update t set w = 'a' where k = 4;
select k from mv;
-- expect: rows (ordered)
-- | 3 |
-- | 2 |
-- | 1 |
-- | 4 |

-- case: order by key is the order-by column then the key
-- derive-only: materialized views
create materialized view mv as select k, w from t order by w;
select name, pk from table_info('mv');
-- expect: rows
-- | k | 2 |
-- | w | 1 |

-- case: cte body
-- derive-only: materialized views
create materialized view mv as with big as (select k, v from t where v >= 10) select k, v from big;
insert into t values (5, 'c', 50, 'x');
select k from mv;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 5 |

-- case: derived table body
-- derive-only: materialized views
create materialized view mv as select g, n from (select g, count(*) as n from t group by g) d where n > 1;
insert into t values (5, 'b', 1, 'x');
select g, n from mv;
-- expect: rows
-- | a | 2 |
-- | b | 2 |

-- case: foreign key cascade reaches the view
-- derive-only: materialized views
create table p (id integer primary key);
create table ch (id integer primary key, pid integer not null references p(id) on delete cascade);
insert into p values (1), (2);
insert into ch values (10, 1), (20, 2);
create materialized view mv as select id, pid from ch;
delete from p where id = 1;
select id from mv;
-- expect: rows
-- | 20 |

-- case: upsert do update reaches the view
-- derive-only: materialized views
create materialized view mv as select k, v from t;
insert into t values (1, 'a', 1, 'p') on conflict (k) do update set v = 99;
select v from mv where k = 1;
-- expect: rows
-- | 99 |

-- case: replace into reaches the view
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n from t group by g;
replace into t values (3, 'a', 1, 'x');
select g, n from mv;
-- expect: rows
-- | NULL | 1 |
-- | a    | 3 |

-- case: insert or ignore skips the conflicting row only
-- derive-only: materialized views
create materialized view mv as select k from t;
insert or ignore into t values (1, 'a', 1, 'p'), (9, 'a', 1, 'p');
select count(*) from mv;
-- expect: rows
-- | 5 |

-- case: update returning and the view
-- derive-only: materialized views
create materialized view mv as select k, v from t where v > 15;
update t set v = 16 where k = 1 returning k;
-- expect: rows
-- | 1 |
select k from mv;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: arm of a lateral fan-out over a constant range
-- derive-only: materialized views
create materialized view mv as select t.k, f.value from t cross join lateral generate_series(1, 2) f;
select arm from materialized_views();
-- expect: rows
-- | lateral fan-out |

-- case: a group view sums text values as numbers
-- derive-only: materialized views
create table st (k integer primary key, g text, s text);
insert into st values (1, 'a', 'x'), (2, 'b', '2'), (3, 'b', '3');
create materialized view mv as select g, sum(s) as total from st group by g;
select g, total, typeof(total) from mv;
-- expect: rows
-- | a | 0.0 | real    |
-- | b | 5   | integer |
insert into st values (4, 'a', '1.5');
update st set s = '4' where k = 3;
select g, total, typeof(total) from mv;
-- expect: rows
-- | a | 1.5 | real    |
-- | b | 6   | integer |

-- case: a 1:1 join view creates the index its lookup writes seek by
-- derive-only: materialized views
create materialized view mv as select u.id, u.x, t.g from u join t on u.k = t.k;
select type, name, sql from schema() where type = 'index';
-- expect: rows
-- | index | derive_mv_mv_1 | create index derive_mv_mv_1 on main.u (k) |
update t set g = 'z' where k = 1;
select id, g from mv;
-- expect: rows
-- | 1 | z |
-- | 2 | a |
drop index derive_mv_mv_1;
-- expect: error materialized view 'main.mv' finds rows by it
drop materialized view mv;
select count(*) from schema() where type = 'index';
-- expect: rows
-- | 0 |

-- case: a 1:1 join view seeks by an index the driving table has
-- derive-only: materialized views
create index u_k on u (k, x);
create materialized view mv as select u.id, u.x, t.g from u join t on u.k = t.k;
select name from schema() where type = 'index';
-- expect: rows
-- | u_k |
drop index u_k;
select name from schema() where type = 'index';
-- expect: rows
-- | derive_mv_mv_1 |
update t set g = 'z' where k = 2;
select id, g from mv;
-- expect: rows
-- | 1 | a |
-- | 2 | z |

-- case: two join views share one supporting index, which outlives a rename
-- derive-only: materialized views
create materialized view m1 as select u.id, t.g from u join t on u.k = t.k;
create materialized view m2 as select u.id, u.x, t.v from u join t on t.k = u.k;
alter table m1 rename to m9;
drop materialized view m9;
select name from schema() where type = 'index';
-- expect: rows
-- | derive_mv_m1_1 |
drop materialized view m2;
select count(*) from schema() where type = 'index';
-- expect: rows
-- | 0 |

-- case: a supporting index rolls back with its view
-- derive-only: materialized views
begin;
create materialized view mv as select u.id, t.g from u join t on u.k = t.k;
rollback;
select count(*) from schema() where type = 'index';
-- expect: rows
-- | 0 |
begin;
create materialized view mv as select u.id, t.g from u join t on u.k = t.k;
commit;
begin;
drop materialized view mv;
rollback;
select name from schema() where type = 'index';
-- expect: rows
-- | derive_mv_mv_1 |
