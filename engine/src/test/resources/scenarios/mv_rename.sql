-- Renames carried into bodies (semantics §5, MV-023): a table or column rename rewrites every
-- view and materialized view that names it, so they read the same rows under the new names and
-- maintenance goes on; a pass-through output column follows, an alias keeps its name.
create table t (k integer primary key, g text, v integer);
create table u (k integer primary key, g text, t_k integer not null references t (k));
insert into t values (1, 'a', 10), (2, 'a', 20), (3, 'b', 30);
insert into u values (1, 'x', 1), (2, 'y', 3);

-- case: a column rename rewrites the body
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table t rename column g to grp;
insert into t values (4, 'c', 40);
select name from table_info('mv');
-- expect: rows
-- | k   |
-- | grp |

-- case: a table rename rewrites the body
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table t rename to t2;
insert into t2 values (4, 'c', 40);
select count(*) from mv;
-- expect: rows
-- | 4 |

-- case: table rename rewrites a plain view
create view w as select k, g from t where v > 15;
alter table t rename to t2;
insert into t2 values (4, 'c', 40);
select k, g from w;
-- expect: rows
-- | 2 | a |
-- | 3 | b |
-- | 4 | c |

-- case: table rename shows in the view's canonical ddl
-- derive-only: schema() is Derive's introspection function
create view w as select t.k, t.g from t where t.v > 15;
alter table t rename to t2;
select sql from schema() where name = 'w';
-- expect: rows
-- | create view main.w as select t2.k, t2.g from t2 where t2.v > 15 |

-- case: table rename keeps a per-row projection maintained
-- derive-only: materialized views
create materialized view mv as select k, g from t where v > 15;
alter table t rename to t2;
insert into t2 values (4, 'c', 40);
update t2 set v = 1 where k = 2;
select k, g from mv;
-- expect: rows
-- | 3 | b |
-- | 4 | c |
select arm, stale from materialized_views() where name = 'mv';
-- expect: rows
-- | per-row projection | false |
select sql from schema() where name = 'mv';
-- expect: rows
-- | create table main.mv (k integer not null, g text, primary key (k)) using {host} maintained as select k, g from t2 where v > 15 |

-- case: table rename keeps a group recompute maintained
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n, sum(v) as s from t group by g;
alter table t rename to t2;
insert into t2 values (4, 'b', 5);
delete from t2 where k = 2;
select g, n, s from mv;
-- expect: rows
-- | a | 1 | 10 |
-- | b | 2 | 35 |
select arm, stale from materialized_views() where name = 'mv';
-- expect: rows
-- | group recompute | false |

-- case: renaming the lookup table of a 1:1 join keeps it maintained
-- derive-only: materialized views
create materialized view mv as select u.k, u.g, t.g as tg from u join t on u.t_k = t.k;
alter table t rename to t2;
update t2 set g = 'z' where k = 3;
insert into u values (3, 'w', 2);
select k, g, tg from mv;
-- expect: rows
-- | 1 | x | a |
-- | 2 | y | z |
-- | 3 | w | a |
select arm, stale from materialized_views() where name = 'mv';
-- expect: rows
-- | 1:1 join | false |
select sql from schema() where name = 'mv';
-- expect: rows
-- | create table main.mv (k integer not null, g text, tg text, primary key (k)) using {host} maintained as select u.k, u.g, t2.g as tg from u join t2 on u.t_k = t2.k |

-- case: renaming the driving table of a 1:1 join keeps it maintained
-- derive-only: materialized views
create materialized view mv as select u.k, u.g, t.g as tg from u join t on u.t_k = t.k;
alter table u rename to orders;
insert into orders values (3, 'w', 2);
delete from orders where k = 1;
select k, g, tg from mv;
-- expect: rows
-- | 2 | y | b |
-- | 3 | w | a |
select arm, stale from materialized_views() where name = 'mv';
-- expect: rows
-- | 1:1 join | false |

-- case: table rename keeps a full rebuild maintained
-- derive-only: materialized views
create materialized view mv as select distinct g from t;
alter table t rename to t2;
insert into t2 values (4, 'c', 40);
select g from mv;
-- expect: rows
-- | a |
-- | b |
-- | c |
select arm, stale from materialized_views() where name = 'mv';
-- expect: rows
-- | full rebuild | false |

-- case: table rename moves the materialized view's sources
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table t rename to t2;
drop table t2;
-- expect: error materialized view 'main.mv' reads it

-- case: an alias of the renamed table keeps its spelling
-- derive-only: schema() is Derive's introspection function
create view w as select x.k, x.g from t as x where x.v > 15;
alter table t rename to t2;
select sql from schema() where name = 'w';
-- expect: rows
-- | create view main.w as select x.k, x.g from t2 as x where x.v > 15 |

-- case: a string literal spelling the old name is not rewritten
create view w as select k, 't' as source, 'g' as label from t where g <> 'g';
alter table t rename to t2;
alter table t2 rename column g to grp;
select k, source, label from w where k = 1;
-- expect: rows
-- | 1 | t | g |

-- case: a string literal in a view body keeps its text in the canonical ddl
-- derive-only: schema() is Derive's introspection function
create view w as select k, 't' as source from t where g <> 'g';
alter table t rename to t2;
alter table t2 rename column g to grp;
select sql from schema() where name = 'w';
-- expect: rows
-- | create view main.w as select k, 't' as source from t2 where grp <> 'g' |

-- case: column rename rewrites where, group by and order by of a view
-- derive-only: schema() is Derive's introspection function
create view w as select g, count(*) as n from t where g is not null group by g order by g;
alter table t rename column g to grp;
select sql from schema() where name = 'w';
-- expect: rows
-- | create view main.w as select grp, count(*) as n from t where grp is not null group by grp order by grp |
select * from w;
-- expect: rows (ordered)
-- | a | 2 |
-- | b | 1 |
-- expect: columns grp, n

-- case: column rename in a group by materialized view follows the output column
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n from t where g is not null group by g;
alter table t rename column g to grp;
insert into t values (4, 'b', 1);
select name from table_info('mv');
-- expect: rows (ordered)
-- | grp |
-- | n   |
select grp, n from mv;
-- expect: rows
-- | a | 2 |
-- | b | 2 |
select sql from schema() where name = 'mv';
-- expect: rows
-- | create table main.mv (grp text not null, n integer, primary key (grp)) using {host} maintained as select grp, count(*) as n from t where grp is not null group by grp |

-- case: column rename rewrites only the join side that reads it
-- derive-only: schema() is Derive's introspection function
create view w as select u.k, u.g as ug, t.g as tg from u join t on u.t_k = t.k and t.g <> u.g;
alter table t rename column g to grp;
select sql from schema() where name = 'w';
-- expect: rows
-- | create view main.w as select u.k, u.g as ug, t.grp as tg from u join t on u.t_k = t.k and t.grp <> u.g |
select k, ug, tg from w;
-- expect: rows
-- | 1 | x | a |
-- | 2 | y | b |

-- case: column rename in a 1:1 join materialized view keeps it maintained
-- derive-only: materialized views
create materialized view mv as select u.k, u.g, t.g as tg, t.v from u join t on u.t_k = t.k;
alter table t rename column v to amount;
update t set amount = 99 where k = 3;
select k, g, tg, amount from mv;
-- expect: rows
-- | 1 | x | a | 10 |
-- | 2 | y | b | 99 |
select arm, stale from materialized_views() where name = 'mv';
-- expect: rows
-- | 1:1 join | false |

-- case: column rename rewrites a correlated subquery
create view w as select k, (select count(*) from u where u.t_k = t.k and u.g <> t.g) as n from t;
alter table t rename column g to grp;
select * from w;
-- expect: rows
-- | 1 | 1 |
-- | 2 | 0 |
-- | 3 | 1 |
-- expect: columns k, n

-- case: column rename follows through a derived table
-- derive-only: SQLite refuses, it does not carry the rename into the derived table's column name
create view w as select s.g, s.v from (select g, v from t where v > 15) as s where s.g = 'a';
alter table t rename column g to grp;
select * from w;
-- expect: rows
-- | a | 20 |
-- expect: columns grp, v

-- case: column rename of a column no body reads leaves the bodies as written
-- derive-only: materialized views
create materialized view mv as select k, g from t where g <> 'b';
create view w as select k from t;
alter table t rename column v to amount;
select sql from schema() where name in ('mv', 'w') order by name;
-- expect: rows (ordered)
-- | create table main.mv (k integer not null, g text, primary key (k)) using {host} maintained as select k, g from t where g <> 'b' |
-- | create view main.w as select k from t |
insert into t values (4, 'c', 40);
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: an aliased output column keeps its name
-- derive-only: materialized views
create materialized view mv as select k, g as label from t;
alter table t rename column g to grp;
select name from table_info('mv');
-- expect: rows (ordered)
-- | k     |
-- | label |
select sql from schema() where name = 'mv';
-- expect: rows
-- | create table main.mv (k integer not null, label text, primary key (k)) using {host} maintained as select k, grp as label from t |
update t set grp = 'q' where k = 1;
select label from mv where k = 1;
-- expect: rows
-- | q |

-- case: an unaliased expression's output is named by its text, which follows
-- derive-only: materialized views
create materialized view mv as select k, upper(g) from t;
alter table t rename column g to grp;
select name from table_info('mv');
-- expect: rows (ordered)
-- | k          |
-- | upper(grp) |
insert into t values (4, 'd', 1);
select "upper(grp)" from mv where k = 4;
-- expect: rows
-- | D |

-- case: a declared column list keeps its names
-- derive-only: materialized views
create materialized view mv (id, label) as select k, g from t;
alter table t rename column g to grp;
select name from table_info('mv');
-- expect: rows (ordered)
-- | id    |
-- | label |
insert into t values (4, 'd', 1);
select label from mv where id = 4;
-- expect: rows
-- | d |

-- case: a rename that would publish a column twice is refused
-- derive-only: materialized views
create materialized view mv as select k, g, v as grp from t;
alter table t rename column g to grp;
-- expect: error already publishes a column named grp
select name from table_info('t');
-- expect: rows (ordered)
-- | k |
-- | g |
-- | v |

-- case: a join by name on the renamed column is refused
create view w as select k, g from t join u using (k, g);
alter table t rename column g to grp;
-- expect: error by name
select count(*) from w;
-- expect: rows
-- | 0 |

-- case: a rename that changes what a natural join matches is refused
-- derive-only: SQLite lets the rename change which columns the natural join matches
create view w as select * from t natural join u;
alter table u rename column t_k to v;
-- expect: error would then resolve to something else

-- case: a new name another name would capture is refused
-- derive-only: SQLite rewrites the reference and lets the new name capture it
create view w as select k, (select count(*) from u where u.k = v) as n from t;
alter table t rename column v to t_k;
-- expect: error would then resolve to something else

-- case: a rolled back table rename restores the old names and bodies
-- derive-only: materialized views
create materialized view mv as select k, g from t where v > 15;
create view w as select k from t;
begin;
alter table t rename to t2;
insert into t2 values (4, 'c', 40);
rollback;
select sql from schema() where name in ('mv', 'w') order by name;
-- expect: rows (ordered)
-- | create table main.mv (k integer not null, g text, primary key (k)) using {host} maintained as select k, g from t where v > 15 |
-- | create view main.w as select k from t |
insert into t values (5, 'e', 50);
select k from mv;
-- expect: rows
-- | 2 |
-- | 3 |
-- | 5 |
select stale from materialized_views() where name = 'mv';
-- expect: rows
-- | false |

-- case: a column rename rolled back to a savepoint restores the column
-- derive-only: materialized views
create materialized view mv as select k, g from t;
begin;
savepoint s;
alter table t rename column g to grp;
insert into t values (4, 'c', 40);
rollback to s;
insert into t values (5, 'e', 50);
commit;
select name from table_info('mv');
-- expect: rows (ordered)
-- | k |
-- | g |
select k, g from mv;
-- expect: rows
-- | 1 | a |
-- | 2 | a |
-- | 3 | b |
-- | 5 | e |

-- case: a rename inside a transaction, then writes, maintains
-- derive-only: materialized views
create materialized view mv as select g, sum(v) as s from t group by g;
begin;
alter table t rename to t2;
alter table t2 rename column g to grp;
insert into t2 values (4, 'a', 1);
update t2 set grp = 'b' where k = 1;
commit;
select grp, s from mv;
-- expect: rows
-- | a | 21 |
-- | b | 40 |

-- case: a column rename follows through a chain of materialized views
-- derive-only: materialized views
create materialized view m1 as select k, g, v from t where v > 5;
create materialized view m2 as select g, count(*) as n from m1 group by g;
create materialized view m3 as select g, n from m2 where n > 1;
alter table t rename column g to grp;
insert into t values (4, 'b', 40);
select name from table_info('m3');
-- expect: rows (ordered)
-- | grp |
-- | n   |
select grp, n from m3;
-- expect: rows
-- | a | 2 |
-- | b | 2 |
select sql from schema() where name = 'm3';
-- expect: rows
-- | create table main.m3 (grp text not null, n integer, primary key (grp)) using {host} maintained as select grp, n from m2 where n > 1 |
select count(*) from materialized_views() where stale;
-- expect: rows
-- | 0 |

-- case: a table rename keeps a chain of materialized views maintained
-- derive-only: materialized views
create materialized view m1 as select k, g, v from t where v > 5;
create materialized view m2 as select g, count(*) as n from m1 group by g;
alter table t rename to t2;
insert into t2 values (4, 'c', 40);
select g, n from m2;
-- expect: rows
-- | a | 2 |
-- | b | 1 |
-- | c | 1 |

-- case: renaming a materialized view rewrites the bodies reading it
-- derive-only: materialized views
create materialized view m1 as select k, g, v from t;
create materialized view m2 as select g, count(*) as n from m1 group by g;
create view w as select m1.k from m1 where m1.v > 15;
alter table m1 rename to base;
insert into t values (4, 'c', 40);
select g, n from m2;
-- expect: rows
-- | a | 2 |
-- | b | 1 |
-- | c | 1 |
select sql from schema() where name in ('m2', 'w') order by name;
-- expect: rows (ordered)
-- | create table main.m2 (g text not null, n integer, primary key (g)) using {host} maintained as select g, count(*) as n from base group by g |
-- | create view main.w as select base.k from base where base.v > 15 |

-- case: a view over a view follows a column rename
-- derive-only: SQLite refuses, it does not carry the rename into views over views
create view w1 as select k, g from t;
create view w2 as select g, count(*) as n from w1 group by g;
alter table t rename column g to grp;
select * from w2;
-- expect: rows
-- | a | 2 |
-- | b | 1 |
-- expect: columns grp, n

-- case: a materialized view over a view follows a column rename
-- derive-only: materialized views
create view w as select k, g from t where v > 5;
create materialized view mv as select g, count(*) as n from w group by g;
alter table t rename column g to grp;
insert into t values (4, 'b', 40);
select grp, n from mv;
-- expect: rows
-- | a | 2 |
-- | b | 2 |
select stale from materialized_views() where name = 'mv';
-- expect: rows
-- | false |

-- case: a star follows a column rename
-- derive-only: materialized views
create materialized view mv as select * from t where v > 15;
alter table t rename column g to grp;
insert into t values (4, 'c', 40);
select name from table_info('mv');
-- expect: rows (ordered)
-- | k   |
-- | grp |
-- | v   |
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: a new name that needs quoting is quoted in the body
-- derive-only: schema() is Derive's introspection function
create view w as select k, g from t;
alter table t rename column g to "group name";
select sql from schema() where name = 'w';
-- expect: rows
-- | create view main.w as select k, "group name" from t |
