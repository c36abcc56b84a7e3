-- Maintained tables: the table form and alter table … set|drop maintained of semantics §2 (shape
-- checks, keys, cycles, reconciling existing rows, body swaps).
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

-- case: an order by in the table form keeps the per-row arm and the declared key
-- derive-only: materialized views
create table s (k integer primary key, g text) maintained as select k, g from t order by g;
select arm from materialized_views();
-- expect: rows
-- | per-row projection |
insert into t values (4, null, 40);
select k, g from s where k = 4;
-- expect: rows
-- | 4 | NULL |

-- case: an ordered scalar aggregate over an empty source stores its NULL row
-- derive-only: materialized views
create table e (k integer primary key, v integer);
create materialized view m as select max(v) as top from e order by top;
select top from m;
-- expect: rows
-- | NULL |

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
create table s (g text primary key, v integer);
insert into s values ('x', 1);
alter table s set maintained as select g, v from t;
-- expect: error duplicate rows for primary key
select * from s;
-- expect: rows
-- | x | 1 |

-- case: set maintained names the duplicate key
-- derive-only: materialized views
create table s (g text primary key, v integer);
alter table s set maintained as select g, v from t;
-- expect: error duplicate rows for primary key (g) = ('a')

-- case: set maintained under a declared key the body cannot prove
-- derive-only: materialized views
create table s (v integer primary key, g text);
insert into s values (10, 'old'), (99, 'gone');
alter table s set maintained as select v, g from t;
select v, g from s;
-- expect: rows (ordered)
-- | 10 | a |
-- | 20 | a |
-- | 30 | b |
select arm from materialized_views() where name = 's';
-- expect: rows
-- | full rebuild |
insert into t values (4, 'c', 40);
update t set v = 21 where k = 2;
select v, g from s;
-- expect: rows (ordered)
-- | 10 | a |
-- | 21 | a |
-- | 30 | b |
-- | 40 | c |

-- case: a write deriving a duplicate declared key fails and changes nothing
-- derive-only: materialized views
create table s (v integer primary key, g text);
alter table s set maintained as select v, g from t;
insert into t values (4, 'c', 10);
-- expect: error duplicate rows for primary key (v) = (10)
select count(*) from t;
-- expect: rows
-- | 3 |
select count(*) from s;
-- expect: rows
-- | 3 |

-- case: the table form under a declared key the body cannot prove
-- derive-only: materialized views
create table s (v integer primary key, k integer not null) maintained as select v, k from t;
delete from t where k = 1;
select v, k from s;
-- expect: rows (ordered)
-- | 20 | 2 |
-- | 30 | 3 |

-- case: a declared key the body cannot prove keeps the full rebuild gate
-- derive-only: materialized views
pragma materialized_view_rebuild_row_threshold = 2;
create table s (v integer primary key, g text);
alter table s set maintained as select v, g from t;
-- expect: error its declared primary key is not the body's provable key
select count(*) from s;
-- expect: rows
-- | 0 |

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

-- case: set maintained adds a trailing column in place
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table mv set maintained as select k, g, v from t;
select * from mv;
-- expect: rows
-- | 1 | a | 10 |
-- | 2 | a | 20 |
-- | 3 | b | 30 |
-- expect: columns k, g, v
update t set v = 11 where k = 1;
select v from mv where k = 1;
-- expect: rows
-- | 11 |

-- case: set maintained renames the trailing column in place
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table mv set maintained as select k, g as label from t;
select label from mv where k = 3;
-- expect: rows
-- | b |

-- case: set maintained drops a trailing column in place
-- derive-only: materialized views
create materialized view mv as select k, g, v from t;
alter table mv set maintained as select k, g from t;
select * from mv where k = 1;
-- expect: rows
-- | 1 | a |
-- expect: columns k, g

-- case: set maintained changes a column's type in place
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table mv set maintained as select k, v as g from t;
select name, type from table_info('mv');
-- expect: rows
-- | k | integer |
-- | g | integer |
select g from mv where k = 2;
-- expect: rows
-- | 20 |

-- case: set maintained moving a column is incompatible
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table mv set maintained as select k, v, g from t;
-- expect: error output shape changed incompatibly
select * from mv where k = 1;
-- expect: rows
-- | 1 | a |
-- expect: columns k, g

-- case: set maintained renaming an inner column is incompatible
-- derive-only: materialized views
create materialized view mv as select k, g, v from t;
alter table mv set maintained as select k, g as label, v from t;
-- expect: error output shape changed incompatibly

-- case: a reshaping swap keeps consumers that still fit
-- derive-only: materialized views
create materialized view m1 as select k, g from t;
create materialized view m2 as select k, g from m1;
alter table m1 set maintained as select k, g, v from t;
insert into t values (4, 'c', 40);
select name, stale from materialized_views();
-- expect: rows
-- | m1 | false |
-- | m2 | false |
select count(*) from m2;
-- expect: rows
-- | 4 |

-- case: a reshaping swap makes consumers of a retyped column stale
-- derive-only: materialized views
create materialized view m1 as select k, g from t;
create materialized view m2 as select k, g from m1;
create materialized view m3 as select k from m1;
alter table m1 set maintained as select k, v as g from t;
select name, stale from materialized_views();
-- expect: rows
-- | m1 | false |
-- | m2 | true  |
-- | m3 | false |

-- case: set maintained on a plain table adds a trailing column in place
-- derive-only: materialized views
create table p (k integer primary key, g text);
insert into p values (1, 'old');
alter table p set maintained as select k, g, v from t;
select * from p;
-- expect: rows
-- | 1 | a | 10 |
-- | 2 | a | 20 |
-- | 3 | b | 30 |
-- expect: columns k, g, v
update t set v = 11 where k = 1;
select v from p where k = 1;
-- expect: rows
-- | 11 |

-- case: set maintained on a plain table drops a trailing column in place
-- derive-only: materialized views
create table p (k integer primary key, g text, x integer);
alter table p set maintained as select k, g from t;
select * from p where k = 3;
-- expect: rows
-- | 3 | b |
-- expect: columns k, g

-- case: set maintained on a plain table renames the trailing column in place
-- derive-only: materialized views
create table p (k integer primary key, label text);
alter table p set maintained as select k, g from t;
select g from p where k = 3;
-- expect: rows
-- | b |

-- case: set maintained on a plain table keeps the declarations of the columns it keeps
-- derive-only: materialized views
create table p (k integer primary key, g text default 'z');
alter table p set maintained as select k, g, v from t;
select name, dflt_value from table_info('p');
-- expect: rows (ordered)
-- | k | NULL |
-- | g | '''z''' |
-- | v | NULL |

-- case: set maintained on a plain table still checks the columns it keeps
-- derive-only: materialized views
create table p (k integer primary key, g integer, x integer);
alter table p set maintained as select k, g from t;
-- expect: error body derives type
select name from table_info('p');
-- expect: rows (ordered)
-- | k |
-- | g |
-- | x |

-- case: set maintained on a plain table refuses a reorder
-- derive-only: materialized views
create table p (k integer primary key, g text, v integer);
alter table p set maintained as select k, v, g from t;
-- expect: error output shape changed incompatibly

-- case: set maintained on a plain table refuses renaming a column its constraints may read
-- derive-only: materialized views
create table p (k integer primary key, label text check (label <> ''));
alter table p set maintained as select k, g from t;
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

-- case: a body swap with fewer column names than outputs is refused
-- derive-only: materialized views
create materialized view mv as select k, g, v from t;
alter table mv set maintained (k, g) as select k, g, v from t;
-- expect: error 2 column names given but the body produces 3
select * from mv where k = 1;
-- expect: rows
-- | 1 | a | 10 |

-- case: a body swap with more column names than outputs is refused
-- derive-only: materialized views
create materialized view mv as select k, g from t;
alter table mv set maintained (k, g, extra) as select k, g from t;
-- expect: error 3 column names given but the body produces 2
