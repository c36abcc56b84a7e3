-- Covering structures (semantics §6, seed mv-constraints.md "Covering structures" and
-- "Enforcement through a covering MV"): a materialized view of the shape
-- `select <unique cols>, <pk cols> from t [where …] order by <unique cols>` is linked to t's
-- unique index (`covers` in materialized_views()), and, while it is maintained per row, answers
-- that index's conflict checks by a key-prefix seek on its backing, with exactly the auto-index's
-- outcomes. unique_probes counts the checks the MV answered; 0 means the auto-index answered.
create table t (id integer primary key, a integer, b text, c integer, unique (a));
insert into t values (1, 10, 'x', 1), (2, 20, 'y', 2), (3, 30, 'z', 3);

-- ---- 1. the coverage prover: which bodies link

-- case: the canonical covering shape links to the unique constraint
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
select name, arm, covers from materialized_views();
-- expect: rows
-- | m | per-row projection | t(a) |

-- case: other columns and any output order still cover
-- derive-only: materialized views are Derive's
create materialized view m as select id, b, a as alpha from t order by alpha;
select covers from materialized_views();
-- expect: rows
-- | t(a) |

-- case: a body without order by does not cover
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: an order by with more than the unique columns does not cover
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a, id;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: an order by on another column does not cover
-- derive-only: materialized views are Derive's
create materialized view m as select a, id, b from t order by b;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: a body without the primary key cannot even be a materialized view
-- derive-only: materialized views are Derive's
create materialized view m as select a, b from t order by a;
-- expect: error no provable unique key

-- case: a body without the unique column does not cover
-- derive-only: materialized views are Derive's
create materialized view m as select b, id from t order by b;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: a where clause more restrictive than the constraint does not cover
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t where c > 1 order by a;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: is not null on the unique column skips only rows that never collide, so it covers
-- derive-only: materialized views are Derive's
insert into t values (4, null, 'n', 4);
create materialized view m as select a, id from t where a is not null order by a;
select covers, row_count from materialized_views();
-- expect: rows
-- | t(a) | 3 |

-- case: is not null on another column restricts the rows, so it does not cover
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t where b is not null order by a;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: a partial unique index is covered by a body with exactly its predicate
-- derive-only: materialized views are Derive's
create table u (id integer primary key, a integer, active integer);
create unique index u_a on u (a) where active = 1;
create materialized view m as select a, id from u where active = 1 order by a;
create materialized view m2 as select a, id from u where a is not null and active = 1 order by a;
create materialized view m3 as select a, id from u order by a;
create materialized view m4 as select a, id from u where active = 1 and id > 0 order by a;
select name, covers from materialized_views() order by name;
-- expect: rows (ordered)
-- | m  | u(a) |
-- | m2 | u(a) |
-- | m3 | NULL |
-- | m4 | NULL |

-- case: a composite unique constraint is covered by an order by permuting its columns
-- derive-only: materialized views are Derive's
create table w (id integer primary key, x integer, y integer, unique (x, y));
create materialized view m as select y, x, id from w order by y, x;
create materialized view m2 as select x, id from w order by x;
select name, covers from materialized_views() order by name;
-- expect: rows (ordered)
-- | m  | w(x, y) |
-- | m2 | NULL    |

-- case: a projection under another collation does not cover
-- derive-only: materialized views are Derive's
create table n (id integer primary key, s text unique);
create materialized view m as select s collate nocase as s, id from n order by s;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: aggregation, distinct and limit do not cover
-- derive-only: materialized views are Derive's
create materialized view g as select a, max(id) as id from t group by a order by a;
create materialized view d as select distinct a, id from t order by a;
create materialized view l as select a, id from t order by a limit 10;
select name, covers from materialized_views() order by name;
-- expect: rows (ordered)
-- | d | NULL |
-- | g | NULL |
-- | l | NULL |

-- ---- 2. enforcement through the covering MV: the auto-index's outcomes

-- case: a duplicate aborts with the auto-index's message, answered by the MV
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
insert into t values (4, 10, 'w', 4);
-- expect: error UNIQUE constraint failed: t.a
select unique_probes, probe_rows_read from materialized_views();
-- expect: rows
-- | 1 | 1 |
select id from t order by id;
-- expect: rows (ordered)
-- | 1 |
-- | 2 |
-- | 3 |

-- case: or ignore skips the duplicate and keeps the others
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
insert or ignore into t values (4, 10, 'w', 4), (5, 50, 'v', 5);
-- expect: count 1
select a, id from m;
-- expect: rows (ordered)
-- | 10   | 1 |
-- | 20   | 2 |
-- | 30   | 3 |
-- | 50   | 5 |
select unique_probes from materialized_views();
-- expect: rows
-- | 2 |

-- case: or replace evicts the conflicting row from the table and from the MV
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
insert or replace into t values (4, 10, 'w', 4);
select id, a from t order by id;
-- expect: rows (ordered)
-- | 2 | 20   |
-- | 3 | 30   |
-- | 4 | 10   |
select a, id from m;
-- expect: rows (ordered)
-- | 10   | 4 |
-- | 20   | 2 |
-- | 30   | 3 |

-- case: a later row of the same replace sees the evicted row gone, not a phantom
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
insert or replace into t values (4, 10, 'w', 4), (5, 10, 'v', 5), (6, 20, 'u', 6);
-- expect: count 3
select id, a from t order by id;
-- expect: rows (ordered)
-- | 3 | 30   |
-- | 5 | 10   |
-- | 6 | 20   |
select a, id from m;
-- expect: rows (ordered)
-- | 10   | 5 |
-- | 20   | 6 |
-- | 30   | 3 |

-- case: a replace eviction runs the foreign-key actions of an ordinary delete
-- derive-only: materialized views are Derive's
create table child (id integer primary key, t_id integer references t (id) on delete cascade);
insert into child values (100, 1), (200, 2);
create materialized view m as select a, id from t order by a;
insert or replace into t values (4, 10, 'w', 4);
select id from child;
-- expect: rows
-- | 200 |

-- case: on conflict do update updates the row the MV found
-- derive-only: materialized views are Derive's
create materialized view m as select a, id, b from t order by a;
insert into t values (4, 10, 'w', 4) on conflict (a) do update set b = 'up';
-- expect: count 1
select a, id, b from m;
-- expect: rows (ordered)
-- | 10   | 1 | up |
-- | 20   | 2 | y  |
-- | 30   | 3 | z  |
insert into t values (5, 20, 'w', 5) on conflict do nothing;
-- expect: count 0
-- three checks: each insert, and the updated image (which keeps its own value)
select unique_probes from materialized_views();
-- expect: rows
-- | 3 |

-- case: duplicates inside one multi-row insert abort the statement
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
insert into t values (4, 40, 'p', 4), (5, 40, 'q', 5);
-- expect: error UNIQUE constraint failed: t.a
select count(*) from m;
-- expect: rows
-- | 3 |

-- case: or ignore keeps the first of two duplicates inside one statement
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
insert or ignore into t values (4, 40, 'p', 4), (5, 40, 'q', 5);
-- expect: count 1
select a, id from m where a = 40;
-- expect: rows
-- | 40 | 4 |

-- case: NULLs are distinct through the covering MV too
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t where a is not null order by a;
insert into t values (4, null, 'n', 4), (5, null, 'n', 5);
-- expect: count 2
select count(*) from t where a is null;
-- expect: rows
-- | 2 |
select covers, row_count from materialized_views();
-- expect: rows
-- | t(a) | 3 |

-- case: without is not null a covering MV refuses the NULL its key cannot hold
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
insert into t values (4, null, 'n', 4);
-- expect: error would store NULL in column 'a'
select count(*) from t;
-- expect: rows
-- | 3 |

-- case: an update colliding on the unique column fails, one keeping its own value does not
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
update t set a = 10 where id = 2;
-- expect: error UNIQUE constraint failed: t.a
update t set a = 10, b = 'same' where id = 1;
-- expect: count 1
update t set a = a + 10;
-- expect: error UNIQUE constraint failed: t.a
select a, id from m;
-- expect: rows (ordered)
-- | 10   | 1 |
-- | 20   | 2 |
-- | 30   | 3 |

-- case: update or replace evicts the other row from the MV
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
update or replace t set a = 10 where id = 2;
-- expect: count 1
select a, id from m;
-- expect: rows (ordered)
-- | 10   | 2 |
-- | 30   | 3 |

-- case: a composite unique constraint is enforced through the permuted MV
-- derive-only: materialized views are Derive's
create table w (id integer primary key, x integer, y integer, unique (x, y));
insert into w values (1, 1, 1), (2, 1, 2), (3, 2, 1);
create materialized view m as select y, x, id from w where y is not null order by y, x;
insert into w values (4, 2, 1);
-- expect: error UNIQUE constraint failed: w.x, w.y
insert into w values (4, 2, 2), (5, 1, null), (6, 1, null);
-- expect: count 3
select unique_probes from materialized_views();
-- expect: rows
-- | 2 |

-- case: a partial unique index is enforced through its covering MV only where it applies
-- derive-only: materialized views are Derive's
create table u (id integer primary key, a integer, active integer);
create unique index u_a on u (a) where active = 1;
insert into u values (1, 7, 1), (2, 7, 0);
create materialized view m as select a, id from u where active = 1 order by a;
insert into u values (3, 7, 0);
insert into u values (4, 7, 1);
-- expect: error UNIQUE constraint failed: u.a
insert or replace into u values (4, 7, 1);
select id from u order by id;
-- expect: rows (ordered)
-- | 2 |
-- | 3 |
-- | 4 |
select a, id from m;
-- expect: rows
-- | 7 | 4 |
select unique_probes from materialized_views();
-- expect: rows
-- | 2 |

-- ---- 3. collations

-- case: a nocase unique column is enforced through its MV under nocase
-- derive-only: materialized views are Derive's
create table n (id integer primary key, s text collate nocase unique);
insert into n values (1, 'abc');
create materialized view m as select s, id from n order by s;
insert into n values (2, 'ABC');
-- expect: error UNIQUE constraint failed: n.s
insert or replace into n values (2, 'aBc');
select s, id from m;
-- expect: rows
-- | aBc | 2 |
select covers, unique_probes from materialized_views();
-- expect: rows
-- | n(s) | 2 |

-- case: a binary unique index over a nocase column is answered by the MV under binary
-- derive-only: materialized views are Derive's
create table n (id integer primary key, s text collate nocase);
create unique index n_s on n (s collate binary);
insert into n values (1, 'abc');
create materialized view m as select s, id from n order by s;
insert into n values (2, 'ABC');
insert into n values (3, 'abc');
-- expect: error UNIQUE constraint failed: n.s
select covers, unique_probes from materialized_views();
-- expect: rows
-- | n(s) | 2 |

-- case: a nocase unique index over a binary column declines the MV, the index answers
-- derive-only: materialized views are Derive's
create table n (id integer primary key, s text);
create unique index n_s on n (s collate nocase);
insert into n values (1, 'abc');
create materialized view m as select s, id from n order by s;
insert into n values (2, 'ABC');
-- expect: error UNIQUE constraint failed: n.s
insert into n values (3, 'abd');
select covers, unique_probes from materialized_views();
-- expect: rows
-- | n(s) | 0 |

-- ---- 4. fallback to the auto-index

-- case: a stale MV covers nothing and the auto-index answers
-- derive-only: materialized views are Derive's
create materialized view m as select a, id, c from t order by a;
alter table t alter column c set data type real;
select stale, covers from materialized_views();
-- expect: rows
-- | true | NULL |
insert into t values (4, 10, 'w', 4);
-- expect: error UNIQUE constraint failed: t.a
insert or replace into t values (4, 10, 'w', 4);
select id, a from t where a = 10;
-- expect: rows
-- | 4 | 10 |
select unique_probes from materialized_views();
-- expect: rows
-- | 0 |

-- case: a refresh links a stale MV again
-- derive-only: materialized views are Derive's
create materialized view m as select a, id, cast(c as integer) as c from t order by a;
alter table t alter column c set data type real;
select stale, covers from materialized_views();
-- expect: rows
-- | true | NULL |
refresh materialized view m;
select stale, covers from materialized_views();
-- expect: rows
-- | false | t(a) |
insert into t values (4, 10, 'w', 4.0);
-- expect: error UNIQUE constraint failed: t.a
select unique_probes from materialized_views();
-- expect: rows
-- | 1 |

-- case: after the MV is dropped the auto-index answers
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
drop materialized view m;
insert into t values (4, 10, 'w', 4);
-- expect: error UNIQUE constraint failed: t.a
insert or replace into t values (4, 10, 'w', 4);
select id from t where a = 10;
-- expect: rows
-- | 4 |

-- case: a covering MV on the full-rebuild arm is linked but never answers
-- derive-only: materialized views are Derive's
create materialized view m as select a, id, (select count(*) from t) as n from t order by a;
select arm, covers from materialized_views();
-- expect: rows
-- | full rebuild | t(a) |
insert into t values (4, 10, 'w', 4);
-- expect: error UNIQUE constraint failed: t.a
insert or replace into t values (4, 10, 'w', 4), (5, 10, 'v', 5);
select a, id, n from m;
-- expect: rows (ordered)
-- | 10   | 5 | 3 |
-- | 20   | 2 | 3 |
-- | 30   | 3 | 3 |
select unique_probes from materialized_views();
-- expect: rows
-- | 0 |

-- case: dropping the unique constraint's index unlinks the MV
-- derive-only: materialized views are Derive's
create table v (id integer primary key, a integer);
create unique index v_a on v (a);
create materialized view m as select a, id from v order by a;
select covers from materialized_views();
-- expect: rows
-- | v(a) |
drop index v_a;
select covers from materialized_views();
-- expect: rows
-- | NULL |
insert into v values (1, 1), (2, 1);
-- expect: count 2
create unique index v_a2 on v (a);
-- expect: error UNIQUE constraint failed

-- ---- 5. transactions: the backing rolls back in lockstep with the source

-- case: a rolled-back insert leaves no candidate behind
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
begin;
insert into t values (4, 40, 'p', 4);
insert into t values (5, 40, 'q', 5);
-- expect: error UNIQUE constraint failed: t.a
rollback;
insert into t values (5, 40, 'q', 5);
select a, id from m where a = 40;
-- expect: rows
-- | 40 | 5 |

-- case: a rolled-back replace restores the evicted row in the table and the MV
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
begin;
insert or replace into t values (4, 10, 'w', 4);
rollback;
select a, id from m where a = 10;
-- expect: rows
-- | 10 | 1 |
insert into t values (5, 10, 'v', 5);
-- expect: error UNIQUE constraint failed: t.a

-- case: rollback to a savepoint undoes the backing with the source
-- derive-only: materialized views are Derive's
create materialized view m as select a, id from t order by a;
begin;
insert into t values (4, 40, 'p', 4);
savepoint s1;
update t set a = 50 where id = 4;
insert into t values (5, 40, 'q', 5);
rollback to s1;
insert into t values (6, 50, 'r', 6);
insert into t values (7, 40, 'r', 7);
-- expect: error UNIQUE constraint failed: t.a
commit;
select a, id from m where a >= 40;
-- expect: rows (ordered)
-- | 40 | 4 |
-- | 50 | 6 |

-- ---- 6. the link follows the catalog

-- case: a unique constraint added after the MV is covered from then on
-- derive-only: materialized views are Derive's
create table v (id integer primary key, a integer);
insert into v values (1, 1), (2, 2);
create materialized view m as select a, id from v order by a;
select covers from materialized_views();
-- expect: rows
-- | NULL |
alter table v add constraint v_a unique (a);
select covers from materialized_views();
-- expect: rows
-- | v(a) |
insert into v values (3, 1);
-- expect: error UNIQUE constraint failed: v.a
select unique_probes from materialized_views();
-- expect: rows
-- | 1 |

-- case: a renamed source keeps its covering MV
-- derive-only: materialized views are Derive's
create materialized view m as select t.a, t.id from t order by t.a;
alter table t rename to t2;
select covers from materialized_views();
-- expect: rows
-- | t2(a) |
insert into t2 values (4, 10, 'w', 4);
-- expect: error UNIQUE constraint failed: t2.a
select unique_probes from materialized_views();
-- expect: rows
-- | 1 |

-- case: a detached MV is an ordinary table and covers nothing
-- derive-only: maintained tables are Derive's
create materialized view m as select a, id from t order by a;
alter table m drop maintained;
select count(*) from materialized_views();
-- expect: rows
-- | 0 |
insert into t values (4, 10, 'w', 4);
-- expect: error UNIQUE constraint failed: t.a

-- case: an aliased source covers
-- derive-only: materialized views are Derive's
create materialized view m as select x.a, x.id from t as x where x.a is not null order by x.a;
select covers from materialized_views();
-- expect: rows
-- | t(a) |

-- case: a bag's rowid identifies its rows for the covering MV
-- derive-only: materialized views are Derive's
create table bag (a integer unique, b text);
insert into bag values (1, 'p'), (2, 'q');
create materialized view m as select a, rowid from bag order by a;
select covers from materialized_views();
-- expect: rows
-- | bag(a) |
insert into bag values (1, 'r');
-- expect: error UNIQUE constraint failed: bag.a
insert or replace into bag values (1, 'r');
select a, b from bag order by a;
-- expect: rows (ordered)
-- | 1 | r |
-- | 2 | q |
select count(*), max(unique_probes) from m, materialized_views();
-- expect: rows
-- | 2 | 2 |

-- case: a covering MV on the memory host answers for a source on any host
-- derive-only: materialized views are Derive's
create materialized view m using memory as select a, id from t order by a;
insert into t values (4, 10, 'w', 4);
-- expect: error UNIQUE constraint failed: t.a
insert or replace into t values (4, 10, 'w', 4);
select a, id from m where a = 10;
-- expect: rows
-- | 10 | 4 |
select host, unique_probes from materialized_views();
-- expect: rows
-- | memory | 2 |

-- ---- 7. 1:1 join bodies: t joined to one lookup table, exactly one MV row per t row

-- case: an inner join over a NOT NULL foreign key to the lookup's primary key links
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null references p (id));
insert into p values (1, 'one'), (2, 'two');
insert into q values (1, 10, 1), (2, 20, 2), (3, 30, 1);
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id order by q.a;
select name, covers, row_count from materialized_views();
-- expect: rows
-- | m | q(a) | 3 |

-- case: the join condition may be written lookup side first, and t aliased
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null references p (id));
create materialized view m as select s.id, p.x, s.a from q as s join p on p.id = s.pid order by s.a;
select covers from materialized_views();
-- expect: rows
-- | q(a) |

-- case: an inner join over a nullable foreign key can lose rows, so it does not link
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer references p (id));
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id order by q.a;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: an inner join without a declared foreign key does not link
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null);
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id order by q.a;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: an inner join with a condition beyond the foreign key does not link
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null references p (id), b text);
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id and q.b = p.x order by q.a;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: a join that leaves part of the lookup key free can fan out, so it does not link
-- derive-only: materialized views are Derive's
create table p (k1 integer, k2 integer, x text, primary key (k1, k2));
create table q (id integer primary key, a integer unique, pid integer);
create materialized view m as select q.a, q.id, p.k1, p.k2, p.x from q left join p on q.pid = p.k1 order by q.a;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: a left join with t preserved links, whatever its lookup key's nullability
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer);
insert into p values (1, 'one');
insert into q values (1, 10, 1), (2, 20, null), (3, 30, 9);
create materialized view m as select q.a, q.id, p.x from q left join p on q.pid = p.id order by q.a;
select covers, row_count from materialized_views();
-- expect: rows
-- | q(a) | 3 |

-- case: t on the right of a left join can lose rows, so it does not link
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer);
create materialized view m as select q.a, q.id, p.id as pid, p.x from p left join q on q.pid = p.id order by q.a;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: an order by on a lookup column of the same name does not link
-- derive-only: materialized views are Derive's
create table p (id integer primary key, a integer);
create table q (id integer primary key, a integer unique, pid integer);
create materialized view m as select p.a, q.a as qa, q.id from q left join p on q.pid = p.id order by p.a;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: t's unique column may share its name with a lookup column, qualified
-- derive-only: materialized views are Derive's
create table p (id integer primary key, a integer);
create table q (id integer primary key, a integer unique, pid integer);
create materialized view m as select q.a, p.a as pa, q.id from q left join p on q.pid = p.id order by q.a;
select covers from materialized_views();
-- expect: rows
-- | q(a) |

-- case: a where on t's columns must be the null-skip or the partial predicate; on the lookup it does not link
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer);
create materialized view m1 as select q.a, q.id from q left join p on q.pid = p.id where q.a is not null order by q.a;
create materialized view m2 as select q.a, q.id from q left join p on q.pid = p.id where p.x is not null order by q.a;
create materialized view m3 as select q.a, q.id from q left join p on q.pid = p.id where q.pid > 0 order by q.a;
select name, covers from materialized_views() order by name;
-- expect: rows (ordered)
-- | m1 | q(a) |
-- | m2 | NULL |
-- | m3 | NULL |

-- case: the lookup table of a join link covers nothing of its own
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text unique);
create table q (id integer primary key, a integer unique, pid integer);
create materialized view m as select q.a, q.id, p.x, p.id as pid from q left join p on q.pid = p.id order by q.a;
select covers from materialized_views();
-- expect: rows
-- | q(a) |

-- ---- 8. enforcement through a 1:1 join covering MV: its driving-table columns follow each row

-- case: an ordered 1:1 join is maintained as a join, its t-writes applied row by row
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null references p (id));
insert into p values (1, 'one'), (2, 'two');
insert into q values (1, 10, 1), (2, 20, 2);
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id order by q.a;
update q set a = 30 where id = 1;
update p set x = 'uno' where id = 1;
select a, id, x from m;
-- expect: rows (ordered)
-- | 20 | 2 | two |
-- | 30 | 1 | uno |
select arm, covers from materialized_views();
-- expect: rows
-- | 1:1 join | q(a) |

-- case: abort through an inner-join covering MV, as the auto-index would
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null references p (id));
insert into p values (1, 'one'), (2, 'two');
insert into q values (1, 10, 1), (2, 20, 2);
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id order by q.a;
insert into q values (3, 10, 2);
-- expect: error UNIQUE constraint failed: q.a
insert into q values (3, 30, 2), (4, 30, 1);
-- expect: error UNIQUE constraint failed: q.a
update q set a = 20 where id = 1;
-- expect: error UNIQUE constraint failed: q.a
select a, id, x from m;
-- expect: rows (ordered)
-- | 10 | 1 | one |
-- | 20 | 2 | two |
select unique_probes, probe_rows_read from materialized_views();
-- expect: rows
-- | 4 | 3 |

-- case: or ignore through an inner-join covering MV keeps the first of two duplicates
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null references p (id));
insert into p values (1, 'one'), (2, 'two');
insert into q values (1, 10, 1);
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id order by q.a;
insert or ignore into q values (2, 10, 2), (3, 40, 2), (4, 40, 1);
-- expect: count 1
select a, id, x from m;
-- expect: rows (ordered)
-- | 10 | 1 | one |
-- | 40 | 3 | two |
select unique_probes from materialized_views();
-- expect: rows
-- | 3 |

-- case: or replace through an inner-join covering MV evicts the row from the table and the MV
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null references p (id));
insert into p values (1, 'one'), (2, 'two');
insert into q values (1, 10, 1), (2, 20, 2);
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id order by q.a;
insert or replace into q values (3, 10, 2), (4, 20, 1);
-- expect: count 2
select id, a, pid from q order by id;
-- expect: rows (ordered)
-- | 3 | 10 | 2 |
-- | 4 | 20 | 1 |
select a, id, x from m;
-- expect: rows (ordered)
-- | 10 | 3 | two |
-- | 20 | 4 | one |
select unique_probes from materialized_views();
-- expect: rows
-- | 2 |

-- case: a left-join covering MV answers for rows without a lookup row too
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer);
insert into p values (1, 'one');
insert into q values (1, 10, 1), (2, 20, null), (3, 30, 9);
create materialized view m as select q.a, q.id, p.x from q left join p on q.pid = p.id order by q.a;
insert into q values (4, 20, 1);
-- expect: error UNIQUE constraint failed: q.a
insert or replace into q values (4, 30, 1);
select a, id, x from m;
-- expect: rows (ordered)
-- | 10 | 1 | one  |
-- | 20 | 2 | NULL |
-- | 30 | 4 | one  |
select unique_probes from materialized_views();
-- expect: rows
-- | 2 |

-- case: a lookup-table write inside the statement leaves the t columns the probe reads alone
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer);
insert into p values (1, 'one'), (2, 'two');
insert into q values (1, 10, 1), (2, 20, 2);
create materialized view m as select q.a, q.id, p.x from q left join p on q.pid = p.id order by q.a;
delete from p where id = 1;
insert into q values (3, 10, 2);
-- expect: error UNIQUE constraint failed: q.a
select a, id, x from m;
-- expect: rows (ordered)
-- | 10 | 1 | NULL |
-- | 20 | 2 | two  |

-- case: with pragma foreign_keys off an inner-join MV can lose rows, so the auto-index answers
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null references p (id));
insert into p values (1, 'one');
insert into q values (1, 10, 1);
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id order by q.a;
pragma foreign_keys = off;
insert into q values (2, 20, 7);
insert into q values (3, 20, 1);
-- expect: error UNIQUE constraint failed: q.a
select a, id from m;
-- expect: rows
-- | 10 | 1 |
select covers, unique_probes from materialized_views();
-- expect: rows
-- | q(a) | 0 |

-- case: an inner join over a foreign key with set default does not link
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null default 1 references p (id) on delete set default);
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id order by q.a;
select covers from materialized_views();
-- expect: rows
-- | NULL |

-- case: a join MV ordered by a lookup column is not maintained as a join
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer);
create materialized view m as select p.x, q.a, q.id from q left join p on q.pid = p.id order by p.x;
select arm, covers from materialized_views();
-- expect: rows
-- | full rebuild | NULL |

-- case: a cascaded re-key of the lookup rewrites t's rows, and the MV follows row by row
-- derive-only: materialized views are Derive's
create table p (id integer primary key, x text);
create table q (id integer primary key, a integer unique, pid integer not null references p (id) on update cascade);
insert into p values (1, 'one'), (2, 'two');
insert into q values (1, 10, 1), (2, 20, 2), (3, 30, 1);
create materialized view m as select q.a, q.id, q.pid, p.x from q join p on q.pid = p.id order by q.a;
update p set id = 5 where id = 1;
select a, id, pid, x from m;
-- expect: rows (ordered)
-- | 10 | 1 | 5 | one |
-- | 20 | 2 | 2 | two |
-- | 30 | 3 | 5 | one |
update q set a = a + 5, pid = 2 where id = 1;
insert into q values (4, 15, 5);
-- expect: error UNIQUE constraint failed: q.a
select a, id, pid, x from m where id = 1;
-- expect: rows
-- | 15 | 1 | 2 | two |
-- four checks: the two cascaded rows, the update and the insert
select unique_probes from materialized_views();
-- expect: rows
-- | 4 |

-- case: a lookup table that becomes maintained after the link was proved unlinks the join
-- derive-only: materialized views are Derive's
pragma foreign_keys = on;
create table p (id integer primary key, x text not null);
create table q (id integer primary key, a integer unique, pid integer not null references p (id));
insert into p values (1, 'one');
insert into q values (1, 10, 1);
create materialized view m as select q.a, q.id, p.x from q join p on q.pid = p.id order by q.a;
insert into q values (2, 20, 1);
alter table p set maintained as select distinct pid as id, 'x' as x from q;
insert into q values (3, 30, 7), (4, 30, 7);
-- expect: error UNIQUE constraint failed: q.a
select count(*) from q;
-- expect: rows
-- | 2 |
