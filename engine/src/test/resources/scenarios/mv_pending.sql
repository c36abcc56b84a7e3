-- Materialized views: features of semantics §2-§5 not built yet, kept as pending scenarios so
-- they turn on (run with -Dderive.scenarios.strictPending=true) when they land.
create table t (k integer primary key, g text, v integer);
insert into t values (1, 'a', 10), (2, 'a', 20), (3, 'b', 30);

-- case: table form creates a maintained table
-- derive-only: materialized views
create table s (k integer primary key, g text) maintained as select k, g from t;
select type from schema() where name = 's';
-- expect: rows
-- | materialized_view |
select count(*) from s;
-- expect: rows
-- | 3 |

-- case: table form column count mismatch
-- derive-only: materialized views
create table s (k integer primary key, g text, x integer) maintained as select k, g from t;
-- expect: error body produces 2 columns but the table declares 3

-- case: table form name mismatch
-- derive-only: materialized views
create table s (k integer primary key, label text) maintained as select k, g from t;
-- expect: error alias the body output

-- case: table form rename list
-- derive-only: materialized views
create table s (k integer primary key, label text) maintained (k, label) as select k, g from t;
select label from s where k = 3;
-- expect: rows
-- | b |

-- case: table form type mismatch
-- derive-only: materialized views
create table s (k integer primary key, g integer) maintained as select k, g from t;
-- expect: error body derives type

-- case: table form nullability mismatch
-- derive-only: materialized views
create table s (k integer primary key, g text) maintained as select k, coalesce(g, '') as g from t;
-- expect: error body derives not null but the table declares nullable

-- case: table form key direction mismatch
-- derive-only: materialized views
create table s (k integer, g text, primary key (k desc)) maintained as select k, g from t;
-- expect: error direction differs

-- case: table form refuses generated columns
-- derive-only: materialized views
create table s (k integer primary key, g text, x integer generated always as (k * 2)) maintained as select k, g, k * 2 as x from t;
-- expect: error generated

-- case: set maintained attaches a derivation
-- derive-only: materialized views
create table s (k integer primary key, g text);
insert into s values (1, 'old'), (9, 'gone');
alter table s set maintained as select k, g from t;
select * from s;
-- expect: rows
-- | 1 | a |
-- | 2 | a |
-- | 3 | b |

-- case: set maintained refuses duplicate derived keys
-- derive-only: materialized views
-- pending: alter table … set maintained
create table s (g text primary key, v integer);
insert into s values ('x', 1);
alter table s set maintained as select g, v from t;
-- expect: error duplicate rows for primary key
select * from s;
-- expect: rows
-- | x | 1 |

-- case: set maintained refuses a cycle
-- derive-only: materialized views
create materialized view a as select k, g from t;
alter table t set maintained as select k, g, 0 as v from a;
-- expect: error derivation cycle

-- case: set maintained swaps the body
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table mv set maintained as select k, g from t where k > 1;
select k from mv;
-- expect: rows
-- | 2 |
-- | 3 |

-- case: set maintained reorder is incompatible
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table mv set maintained as select g, k from t;
-- expect: error output shape changed incompatibly

-- case: drop maintained detaches
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table mv drop maintained;
insert into mv values (9, 'free');
insert into t values (4, 'c', 40);
select k from mv;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |
-- | 9 |

-- case: drop maintained on a plain table
-- derive-only: materialized views
alter table t drop maintained;
-- expect: error it is not a maintained table

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

-- case: lateral fan-out arm
-- derive-only: materialized views
create materialized view mv as select t.k, f.value from t cross join lateral generate_series(1, 2) f;
select arm from materialized_views();
-- expect: rows
-- | lateral fan-out |

-- case: order-by key column would store null
-- derive-only: materialized views
-- pending: staleness on schema change
create table o (k integer primary key, w text not null);
insert into o values (1, 'x');
create materialized view mv as select k, w from o order by w;
alter table o alter column w drop not null;
insert into o values (2, null);
-- expect: error would store NULL in column 'w'
