-- Materialized views: read-only enforcement and write-through (semantics §4), and drop (§2).
create table t (k integer primary key, g text, v integer, st text);
insert into t values (1, 'a', 10, 'open'), (2, 'b', 20, 'open'), (3, 'c', 30, 'closed');

-- case: update through a projection reaches the source
-- derive-only: materialized views
create materialized view mv as select k, g, v from t;
update mv set g = 'z' where k = 1;
select g from t where k = 1;
-- expect: rows
-- | z |
select g from mv where k = 1;
-- expect: rows
-- | z |

-- case: delete through a projection reaches the source
-- derive-only: materialized views
create materialized view mv as select k, g from t where st = 'open';
delete from mv where k = 2;
select k from t;
-- expect: rows
-- | 1 |
-- | 3 |

-- case: delete through a filtered view touches only its rows
-- derive-only: materialized views
create materialized view mv as select k, g from t where st = 'open';
delete from mv;
select k from t;
-- expect: rows
-- | 3 |

-- case: insert through a filtered view fills the equality constant
-- derive-only: materialized views
create materialized view mv as select k, g from t where st = 'open';
insert into mv values (4, 'd');
select k, st from t where k = 4;
-- expect: rows
-- | 4 | open |
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: renamed columns are writable
-- derive-only: materialized views
create materialized view mv (id, label) as select k, g from t;
update mv set label = 'q' where id = 3;
select g from t where k = 3;
-- expect: rows
-- | q |

-- case: a computed column is not writable
-- derive-only: materialized views
create materialized view mv as select k, v * 2 as d from t;
update mv set d = 4 where k = 1;
-- expect: error non-invertible

-- case: a group view cannot be written through
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n from t group by g;
delete from mv;
-- expect: error cannot write through materialized view

-- case: a join view cannot be written through
-- derive-only: materialized views
create table u (id integer primary key, k integer);
create materialized view mv as select t.k, u.id from t join u on u.k = t.k;
insert into mv values (1, 1);
-- expect: error cannot write through materialized view

-- case: a failed write-through leaves no trace
-- derive-only: materialized views
create materialized view mv as select k, g from t;
insert into mv values (4, 'd'), (1, 'dup');
-- expect: error UNIQUE constraint failed: t.k
select count(*) from t;
-- expect: rows
-- | 3 |

-- case: write-through rolls back with the transaction
-- derive-only: materialized views
create materialized view mv as select k, g from t;
begin;
update mv set g = 'z';
rollback;
select g from mv where k = 1;
-- expect: rows
-- | a |

-- case: drop view on a materialized view
-- derive-only: materialized views
create materialized view mv as select k from t;
drop view mv;
-- expect: error use DROP MATERIALIZED VIEW

-- case: drop materialized view on a plain view
-- derive-only: materialized views
create view pv as select k from t;
drop materialized view pv;
-- expect: error use DROP VIEW

-- case: drop then recreate with another body
-- derive-only: materialized views
create materialized view mv as select k from t;
drop materialized view mv;
create materialized view mv as select k, v from t where v > 15;
select k from mv;
-- expect: rows
-- | 2 |
-- | 3 |

-- case: a dropped view no longer follows its source
-- derive-only: materialized views
create materialized view mv as select k from t;
drop materialized view mv;
insert into t values (4, 'd', 40, 'open');
select count(*) from materialized_views();
-- expect: rows
-- | 0 |

-- case: drop source after dropping the view
-- derive-only: materialized views
create materialized view mv as select k from t;
drop materialized view mv;
drop table t;
select count(*) from schema() where name = 't';
-- expect: rows
-- | 0 |

-- case: drop source refused names the view
-- derive-only: materialized views
create materialized view mv as select k from t;
drop table t;
-- expect: error materialized view 'main.mv' reads it

-- case: drop refused while a check depends on the view
-- derive-only: materialized views
create materialized view mv as select k from t;
create table r (x integer, constraint ck check (x in (select k from mv)));
drop materialized view mv;
-- expect: error referenced by CHECK constraint 'ck' on table 'r'
select count(*) from mv;
-- expect: rows
-- | 3 |
alter table r drop constraint ck;
drop materialized view mv;

-- case: dropping a source names the check that reaches it through a view
-- derive-only: materialized views
create materialized view bm as select k from t;
create table r (x integer, constraint ck check (x in (select k from bm)));
drop table t;
-- expect: error cannot drop table 'main.t': referenced by CHECK constraint 'ck' on table 'r', which reaches it through materialized view 'bm'

-- case: the chain to the check runs through views over views
-- derive-only: materialized views
create materialized view a as select k from t;
create materialized view b as select k from a;
create table r (x integer, constraint ck check (x in (select k from b)));
drop table t;
-- expect: error referenced by CHECK constraint 'ck' on table 'r', which reaches it through materialized views 'a' → 'b'
select count(*) from b;
-- expect: rows
-- | 3 |

-- case: drop refused while a check of a maintained table depends on the view
-- derive-only: materialized views
create materialized view mv as select k from t;
create table r (k integer primary key, constraint ck check (k in (select k from mv))) maintained as select k from t;
drop materialized view mv;
-- expect: error cannot drop materialized view 'main.mv': referenced by CHECK constraint 'ck' on table 'r'

-- case: an unnamed check depending on the view is named by its condition
-- derive-only: materialized views
create materialized view mv as select k from t;
create table r (x integer check (x in (select k from mv)));
drop materialized view mv;
-- expect: error referenced by CHECK constraint 'x in (select k from mv)' on table 'r'

-- case: a check reading a view does not hold back the drop of another view
-- derive-only: materialized views
create view v as select k from t;
create table r (x integer, constraint ck check (exists (select 1 from v where v.k = x)));
create materialized view mv as select k from t;
drop materialized view mv;
insert into r values (2);

-- case: drop in a rolled back transaction keeps the view
-- derive-only: materialized views
create materialized view mv as select k from t;
begin;
drop materialized view mv;
select * from mv;
-- expect: error no such table: mv
rollback;
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: drop materialized view if exists on a view
-- derive-only: materialized views
create materialized view mv as select k from t;
drop materialized view if exists mv;
drop materialized view if exists mv;
select count(*) from materialized_views();
-- expect: rows
-- | 0 |

-- case: rename of a materialized view keeps maintenance
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table mv rename to mv2;
insert into t values (4, 'd', 40, 'open');
select count(*) from mv2;
-- expect: rows
-- | 4 |
