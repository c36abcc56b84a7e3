-- Materialized views: the create statement of semantics §2 and the create-time gates of §3.
create table t (k integer primary key, g text, v integer, w text not null);
insert into t values (1, 'a', 10, 'p'), (2, 'a', 20, 'q'), (3, 'b', null, 'r');

-- case: create returns no rows and fills at once
-- derive-only: materialized views
create materialized view mv as select k, v from t;
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: column list renames every output by position
-- derive-only: materialized views
create materialized view mv (a, b) as select k, v from t;
select * from mv where a = 1;
-- expect: rows
-- | 1 | 10 |
-- expect: columns a, b

-- case: column list shorter than the body fails
-- derive-only: materialized views
create materialized view mv (a) as select k, v from t;
-- expect: error has 1 declared columns but body produces 2

-- case: failed create leaves no table behind
-- derive-only: materialized views
create materialized view mv (a) as select k, v from t;
-- expect: error has 1 declared columns but body produces 2
select * from mv;
-- expect: error no such table: mv

-- case: using memory host explicitly
-- derive-only: materialized views
create materialized view mv using memory as select k, g from t;
select host from materialized_views() where name = 'mv';
-- expect: rows
-- | memory |

-- case: without using the view takes the default host
-- derive-only: materialized views
create materialized view mv as select k, g from t;
select host from materialized_views();
-- expect: rows
-- | {host} |

-- case: unknown host fails
-- derive-only: materialized views
create materialized view mv using nope as select k, g from t;
-- expect: error no table module named 'nope'

-- case: memory host refuses arguments
-- derive-only: materialized views
create materialized view mv using memory(x) as select k, g from t;
-- expect: error takes no arguments

-- case: name taken by a plain view
-- derive-only: materialized views
create view pv as select k from t;
create materialized view pv as select k from t;
-- expect: error already exists

-- case: name taken by a table in another case
-- derive-only: materialized views
create table other (x integer);
create materialized view other as select k from t;
-- expect: error already exists

-- case: names are case-insensitive
-- derive-only: materialized views
create materialized view MyView as select k from t;
select count(*) from myview;
-- expect: rows
-- | 3 |
create materialized view MYVIEW as select k from t;
-- expect: error Materialized view 'main.myview' already exists

-- case: if not exists on a new name creates it
-- derive-only: materialized views
create materialized view if not exists mv as select k from t;
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: if not exists does not refill an existing view
-- derive-only: materialized views
create materialized view mv as select k from t where k > 2;
create materialized view if not exists mv as select k from t;
select k from mv;
-- expect: rows
-- | 3 |

-- case: materialized_views lists the view
-- derive-only: materialized views
create materialized view mv as select k, v from t;
select schema, name, stale, row_count from materialized_views();
-- expect: rows
-- | main | mv | false | 3 |

-- case: schema shows the table form
-- derive-only: materialized views
create materialized view mv as select k, v from t where v > 5;
select type, sql from schema() where name = 'mv';
-- expect: rows
-- | materialized_view | create table main.mv (k integer not null, v integer, primary key (k)) using {host} maintained as select k, v from t where v > 5 |

-- case: table_info shows the backing columns
-- derive-only: materialized views
create materialized view mv as select k, w, v * 2 as d from t;
select name, type, notnull, pk from table_info('mv');
-- expect: rows
-- | k | integer | 1 | 1 |
-- | w | text    | 1 | 0 |
-- | d | integer | 0 | 0 |

-- case: duplicate output names fail
-- derive-only: materialized views
create materialized view mv as select k, v, v from t;
-- expect: error alias the body output

-- case: aliased duplicates are fine
-- derive-only: materialized views
create materialized view mv as select k, v, v as v2 from t;
select v2 from mv where k = 2;
-- expect: rows
-- | 20 |

-- case: a body with parameters fails
-- derive-only: materialized views
create materialized view mv as select k from t where v > ?;
-- expect: error a body cannot use parameters

-- case: a body over a plain view
-- derive-only: materialized views
create view pv as select k, v from t;
create materialized view mv as select k, v from pv where v > 10;
insert into t values (4, 'c', 40, 's');
select k from mv;
-- expect: rows
-- | 2 |
-- | 4 |

-- case: with tags on create
-- derive-only: materialized views
create materialized view mv as select k from t with tags (team = 'x');
select tags from materialized_views();
-- expect: rows
-- | {"team":"x"} |

-- case: a create inside a committed transaction stays
-- derive-only: materialized views
begin;
create materialized view mv as select k from t;
insert into t values (4, 'c', 40, 's');
commit;
select count(*) from mv;
-- expect: rows
-- | 4 |

-- case: body evaluated once at create
-- derive-only: materialized views
create materialized view mv as select k, v from t;
insert into t values (4, 'c', 40, 's');
select body_evaluations from materialized_views();
-- expect: rows
-- | 1 |

-- case: non-deterministic column is refused
-- derive-only: materialized views
create materialized view mv as select k, random() as r from t;
-- expect: error cannot be materialized: non-deterministic expression column 'r'

-- case: non-deterministic blob is refused
-- derive-only: materialized views
create materialized view mv as select k, randomblob(4) as b from t;
-- expect: error non-deterministic expression column 'b'

-- case: current time is refused
-- derive-only: materialized views
create materialized view mv as select k, current_timestamp as at from t;
-- expect: error non-deterministic expression column 'at'

-- case: non-deterministic rebuild body names the pragma
-- derive-only: materialized views
create materialized view mv as select distinct g, random() as r from t;
-- expect: error nondeterministic_schema

-- case: pragma lifts non-determinism for a rebuild body
-- derive-only: materialized views
pragma nondeterministic_schema = true;
create materialized view mv as select k, g, v from t union select k, g, random() from t where 0;
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: a non-deterministic projection is no per-row body
-- derive-only: materialized views
pragma nondeterministic_schema = true;
create materialized view mv as select k, random() as r from t;
select arm, row_count from materialized_views();
-- expect: rows
-- | full rebuild | 3 |

-- case: body without a key is refused
-- derive-only: materialized views
create materialized view mv as select g, v from t;
-- expect: error cannot be materialized: no provable unique key

-- case: union all has no provable key
-- derive-only: materialized views
create materialized view mv as select k from t union all select k from t;
-- expect: error no provable unique key

-- case: a join losing the key is refused
-- derive-only: materialized views
create table u (id integer primary key, g text);
create materialized view mv as select t.k, u.g from t join u on u.g = t.g;
-- expect: error no provable unique key

-- case: a constant body reads no source
-- derive-only: materialized views
create materialized view mv as select 1 as k;
-- expect: error cannot be materialized: reads no source table

-- case: generate_series alone reads no source
-- derive-only: materialized views
create materialized view mv as select value from generate_series(1, 3);
-- expect: error reads no source table

-- case: rebuild threshold refuses a large source
-- derive-only: materialized views
pragma materialized_view_rebuild_row_threshold = 2;
create materialized view mv as select distinct g from t;
-- expect: error materialized_view_rebuild_row_threshold

-- case: rebuild threshold does not gate a per-row body
-- derive-only: materialized views
pragma materialized_view_rebuild_row_threshold = 2;
create materialized view mv as select k, g from t;
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: rebuild threshold zero disables the gate
-- derive-only: materialized views
pragma materialized_view_rebuild_row_threshold = 0;
create materialized view mv as select distinct g from t;
select count(*) from mv;
-- expect: rows
-- | 2 |

-- case: key of a keyless table is its rowid when selected
-- derive-only: materialized views
create table bag (x integer, y text);
insert into bag values (1, 'a'), (1, 'a');
create materialized view mv as select rowid as r, x, y from bag;
select count(*) from mv;
-- expect: rows
-- | 2 |

-- case: a keyless table without rowid has no key
-- derive-only: materialized views
create table bag (x integer, y text);
create materialized view mv as select x, y from bag;
-- expect: error no provable unique key

-- case: distinct provides the key
-- derive-only: materialized views
create materialized view mv as select distinct g from t;
select g from mv;
-- expect: rows
-- | a |
-- | b |

-- case: group by provides the key
-- derive-only: materialized views
create materialized view mv as select g, count(*) as n from t group by g;
select * from mv;
-- expect: rows
-- | a | 2 |
-- | b | 1 |

-- case: a scalar aggregate is one row
-- derive-only: materialized views
create materialized view mv as select count(*) as n, sum(v) as s from t;
select * from mv;
-- expect: rows
-- | 3 | 30 |

-- case: a join carrying the driving key
-- derive-only: materialized views
create table u (id integer primary key, label text);
insert into u values (1, 'one'), (2, 'two');
create materialized view mv as select t.k, u.label from t join u on u.id = t.k;
select * from mv;
-- expect: rows
-- | 1 | one |
-- | 2 | two |

-- case: key through a renamed source key
-- derive-only: materialized views
create materialized view mv as select k as id, v from t;
select name, pk from table_info('mv');
-- expect: rows
-- | id | 1 |
-- | v  | 0 |
