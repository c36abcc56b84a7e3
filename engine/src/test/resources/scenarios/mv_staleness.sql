-- Materialized views: schema change and staleness (semantics §5), and the backing's key columns
-- never holding NULL (§3).
create table t (k integer primary key, g text, v integer);
insert into t values (1, 'a', 10), (2, 'a', 20), (3, 'b', 30);

-- case: an incompatible source change makes the view stale
-- derive-only: materialized views
-- pending: staleness on schema change
create materialized view mv as select k, g from t;
alter table t alter column g set data type integer;
select stale from materialized_views();
-- expect: rows
-- | true |

-- case: a stale view serves its last contents
-- derive-only: materialized views
create materialized view mv as select k, v from t;
alter table t alter column v set data type text;
insert into t values (4, 'd', '40');
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: a stale view whose body no longer plans
-- derive-only: materialized views
create materialized view mv as select k, v from t;
alter table t drop column v;
select * from mv;
-- expect: error is stale; a source changed in an incompatible way — drop and recreate

-- case: refresh clears staleness
-- derive-only: materialized views
-- pending: staleness on schema change
create materialized view mv as select k, v from t;
alter table t alter column v set data type text;
refresh materialized view mv;
select stale from materialized_views();
-- expect: rows
-- | false |

-- case: staleness spreads to consumers
-- derive-only: materialized views
create materialized view m1 as select k, v from t;
create materialized view m2 as select k from m1;
alter table t alter column v set data type text;
select name, stale from materialized_views();
-- expect: rows
-- | m1 | true |
-- | m2 | true |

-- case: a compatible source change recompiles in place
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table t add column z integer;
insert into t values (4, 'c', 40, 1);
select stale, row_count from materialized_views();
-- expect: rows
-- | false | 4 |

-- case: an index on a source never makes the view stale
-- derive-only: materialized views
create materialized view mv as select k, g from t;
create index tg on t (g);
insert into t values (4, 'c', 40);
select stale, row_count from materialized_views();
-- expect: rows
-- | false | 4 |

-- case: order-by key column would store null
-- derive-only: materialized views
create table o (k integer primary key, w text not null);
insert into o values (1, 'x');
create materialized view mv as select k, w from o order by w;
alter table o alter column w drop not null;
insert into o values (2, null);
-- expect: error would store NULL in column 'w'
select * from mv;
-- expect: rows
-- | 1 | x |
insert into o values (2, 'y');
update o set w = null where k = 2;
-- expect: error would store NULL in column 'w'
select k, w from mv;
-- expect: rows (ordered)
-- | 1 | x |
-- | 2 | y |
