-- Materialized views: schema change and staleness (semantics §5), and the backing's key columns
-- never holding NULL (§3).
create table t (k integer primary key, g text, v integer);
insert into t values (1, 'a', 10), (2, 'a', 20), (3, 'b', 30);

-- case: an incompatible source change makes the view stale
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table t alter column g set collate nocase;
select stale from materialized_views();
-- expect: rows
-- | true |
insert into t values (4, 'c', 40);
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: a type change of a column the body reads makes the view stale
-- derive-only: materialized views
create materialized view mv as select k, v from t;
alter table t alter column v set data type real;
select stale from materialized_views();
-- expect: rows
-- | true |

-- case: a type change of a column read only by the filter makes the view stale
-- derive-only: materialized views
create materialized view mv as select k, g from t where v > 15;
alter table t alter column v set data type text;
select stale from materialized_views();
-- expect: rows
-- | true |

-- case: a type change of a column the body does not read recompiles in place
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table t alter column v set data type text;
insert into t values (4, 'c', '40');
select stale, row_count from materialized_views();
-- expect: rows
-- | false | 4 |

-- case: a collation change of a column the body does not read recompiles in place
-- derive-only: materialized views
create materialized view mv as select k, v from t where v > 15;
alter table t alter column g set collate nocase;
insert into t values (4, 'c', 40);
select stale, row_count from materialized_views();
-- expect: rows
-- | false | 3 |

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
create materialized view mv as select k, v from t;
alter table t alter column v set data type text;
refresh materialized view mv;
select stale from materialized_views();
-- expect: rows
-- | false |

-- case: refresh reshapes a stale view to the new column type
-- derive-only: materialized views
create materialized view mv as select k, v from t;
alter table t alter column v set data type text;
refresh materialized view mv;
select name, type from table_info('mv');
-- expect: rows
-- | k | integer |
-- | v | text    |
insert into t values (4, 'd', '40');
select k, typeof(v) from mv where k > 2;
-- expect: rows
-- | 3 | text |
-- | 4 | text |

-- case: refresh reshapes a stale view to the new collation
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table t alter column g set collate nocase;
refresh materialized view mv;
insert into t values (4, 'A', 40);
select k from mv where g = 'a';
-- expect: rows
-- | 1 |
-- | 2 |
-- | 4 |

-- case: refresh keeps a column list that still fits
-- derive-only: materialized views
create materialized view mv (kk, vv) as select k, v from t;
alter table t alter column v set data type text;
refresh materialized view mv;
select name, type from table_info('mv');
-- expect: rows
-- | kk | integer |
-- | vv | text    |

-- case: refresh adds a trailing column a star body now produces
-- derive-only: materialized views
create materialized view mv as select * from t;
alter table t add column z integer;
select stale from materialized_views();
-- expect: rows
-- | true |
update t set z = k * 2;
refresh materialized view mv;
select k, z from mv;
-- expect: rows
-- | 1 | 2 |
-- | 2 | 4 |
-- | 3 | 6 |
select stale from materialized_views();
-- expect: rows
-- | false |

-- case: refresh drops a trailing column a star body no longer produces
-- derive-only: materialized views
create materialized view mv as select * from t;
alter table t drop column v;
refresh materialized view mv;
select * from mv;
-- expect: rows
-- | 1 | a |
-- | 2 | a |
-- | 3 | b |
-- expect: columns k, g

-- case: refresh with a column list that no longer fits
-- derive-only: materialized views
create materialized view mv (a, b, c) as select * from t;
alter table t add column z integer;
refresh materialized view mv;
-- expect: error drop and recreate
select stale from materialized_views();
-- expect: rows
-- | true |

-- case: refresh of a stale view whose body no longer plans
-- derive-only: materialized views
create materialized view mv as select k, v from t;
alter table t drop column v;
refresh materialized view mv;
-- expect: error its body no longer plans (no such column: v): drop and recreate

-- case: a reshaping refresh rolls back with its transaction
-- derive-only: materialized views
create materialized view mv as select k, v from t;
alter table t alter column v set data type text;
begin;
refresh materialized view mv;
rollback;
select stale from materialized_views();
-- expect: rows
-- | true |
select name, type from table_info('mv');
-- expect: rows
-- | k | integer |
-- | v | integer |
select count(*) from mv;
-- expect: rows
-- | 3 |

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

-- case: dropping not null of a carried column makes the view's column nullable
-- derive-only: materialized views
create table o (k integer primary key, w text not null);
insert into o values (1, 'x');
create materialized view mv as select k, w from o;
alter table o alter column w drop not null;
insert into o values (2, null);
select name, "notnull" from table_info('mv');
-- expect: rows (ordered)
-- | k | 1 |
-- | w | 0 |
select sql from schema() where name = 'mv';
-- expect: rows
-- | create table main.mv (k integer not null, w text, primary key (k)) using {host} maintained as select k, w from o |
select k, w from mv;
-- expect: rows
-- | 1 | x    |
-- | 2 | NULL |
select stale from materialized_views();
-- expect: rows
-- | false |

-- case: dropping not null reaches a view over the view
-- derive-only: materialized views
create table o (k integer primary key, w text not null);
create materialized view mv as select k, w from o;
create materialized view mm as select k, w from mv where k > 0;
alter table o alter column w drop not null;
insert into o values (1, null);
select "notnull" from table_info('mm') where name = 'w';
-- expect: rows
-- | 0 |
select k, w from mm;
-- expect: rows
-- | 1 | NULL |
select name, stale from materialized_views();
-- expect: rows
-- | mm | false |
-- | mv | false |

-- case: dropping not null keeps an order-by key column not null
-- derive-only: materialized views
create table o (k integer primary key, w text not null, v text not null);
create materialized view mv as select k, w, v from o order by w;
alter table o alter column w drop not null;
alter table o alter column v drop not null;
select name, "notnull" from table_info('mv');
-- expect: rows (ordered)
-- | k | 1 |
-- | w | 1 |
-- | v | 0 |
insert into o values (1, null, 'a');
-- expect: error would store NULL in column 'w'
