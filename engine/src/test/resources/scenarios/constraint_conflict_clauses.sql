-- SQLite's conflict clauses in DDL (semantics §1): on conflict <resolution> on a primary key, a
-- UNIQUE and a NOT NULL, column and table form. The constraint's resolution applies when the
-- statement says no or …; a statement's or … overrides every constraint's. A table-level CHECK
-- accepts the clause and ignores it, as SQLite does. (ConflictResolutionDifferentialContract
-- runs every kind × resolution × override against SQLite; these are the readable cases.)
create table t (k integer primary key on conflict replace, a integer unique on conflict ignore,
                n integer not null on conflict replace default 0, v text);
insert into t values (1, 10, 1, 'one'), (2, 20, 2, 'two');

-- case: a primary key on conflict replace replaces the row an insert collides with
insert into t values (1, 11, 1, 'uno');
-- expect: count 1
select k, a, v from t;
-- expect: rows
-- | 1 | 11 | uno |
-- | 2 | 20 | two |

-- case: a unique on conflict ignore skips the row
insert into t values (3, 10, 3, 'three'), (4, 40, 4, 'four');
-- expect: count 1
select k from t;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 4 |

-- case: a not null on conflict replace takes the column's default
insert into t values (3, 30, null, 'three');
select n from t where k = 3;
-- expect: rows
-- | 0 |

-- case: an ignore is checked before a replace, so the row is skipped and nothing is replaced
insert into t values (1, 20, 1, 'clash');
-- expect: count 0
select k, v from t;
-- expect: rows
-- | 1 | one |
-- | 2 | two |

-- case: the statement's or abort overrides the constraints' resolutions
insert or abort into t values (1, 11, 1, 'uno');
-- expect: error UNIQUE constraint failed: t.k
insert or abort into t values (3, 10, 3, 'three');
-- expect: error UNIQUE constraint failed: t.a
insert or abort into t values (3, 30, null, 'three');
-- expect: error NOT NULL constraint failed: t.n
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: the statement's or replace overrides an ignore
insert or replace into t values (3, 10, 3, 'three');
select k, a from t;
-- expect: rows
-- | 2 | 20 |
-- | 3 | 10 |

-- case: an update resolves by the constraints too
update t set a = 20 where k = 1;
-- expect: count 0
update t set k = 2 where k = 1;
-- expect: count 1
select k, a, v from t;
-- expect: rows
-- | 2 | 10 | one |

-- case: table constraint forms
create table p (a integer, b integer, v text, primary key (a) on conflict ignore, unique (b, v) on conflict replace);
insert into p values (1, 1, 'x'), (2, 2, 'y');
insert into p values (1, 9, 'dup key');
-- expect: count 0
insert into p values (3, 2, 'y');
select a, b, v from p;
-- expect: rows
-- | 1 | 1 | x |
-- | 3 | 2 | y |

-- case: on conflict fail keeps the rows the statement wrote before the failing one
create table f (k integer primary key, a integer unique on conflict fail);
insert into f values (1, 10);
insert into f values (2, 20), (3, 10), (4, 40);
-- expect: error UNIQUE constraint failed: f.a
select k from f;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: on conflict rollback ends the transaction
create table r (k integer primary key, n integer not null on conflict rollback);
insert into r values (1, 1);
begin;
insert into r values (2, 2);
insert into r values (3, null);
-- expect: error NOT NULL constraint failed: r.n
select k from r;
-- expect: rows
-- | 1 |

-- case: a not null on conflict replace without a default aborts
create table d (k integer primary key, n integer not null on conflict replace);
insert into d values (1, null);
-- expect: error NOT NULL constraint failed: d.n

-- case: a not null on conflict ignore skips the row
create table d (k integer primary key, n integer not null on conflict ignore);
insert into d values (1, null), (2, 2);
-- expect: count 1
update d set n = null;
-- expect: count 0
select k, n from d;
-- expect: rows
-- | 2 | 2 |

-- case: a table check accepts a conflict clause and ignores it
create table c (k integer primary key, n integer, check (n > 0) on conflict ignore);
insert into c values (1, -1);
-- expect: error CHECK constraint failed
insert or ignore into c values (1, -1), (2, 2);
-- expect: count 1

-- case: a column check takes no conflict clause, as in SQLite
create table c (k integer primary key, n integer check (n > 0) on conflict ignore);
-- expect: error syntax error

-- case: a conflict clause names a resolution
create table c (k integer primary key on conflict skip);
-- expect: error expected 'rollback', 'abort', 'fail', 'ignore' or 'replace'

-- case: canonical ddl keeps each constraint's resolution
-- derive-only: schema() is Derive's introspection function
create table q (k integer primary key on conflict ignore, a integer not null on conflict replace default 1,
                b integer unique on conflict fail, c integer, unique (a, c) on conflict rollback,
                check (c > 0) on conflict replace, d integer not null on conflict abort);
select sql from schema() where name = 'q';
-- expect: rows
-- | create table main.q (k integer not null, a integer not null on conflict replace default 1, b integer, c integer, d integer not null, primary key (k) on conflict ignore, unique (b) on conflict fail, unique (a, c) on conflict rollback, check (c > 0)) using {host} |

-- case: a column keeps its not null resolution when added
-- derive-only: schema() is Derive's introspection function
create table q (k integer primary key);
alter table q add column n integer not null on conflict ignore default 3;
select sql from schema() where name = 'q';
-- expect: rows
-- | create table main.q (k integer not null, n integer not null on conflict ignore default 3, primary key (k)) using {host} |
insert into q values (1, null);
-- expect: count 0

-- case: a derived row is never skipped or replaced by a maintained table's resolutions
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, v text);
create table m (k integer primary key, v text, unique (v) on conflict replace) maintained as select k, v from s;
insert into s values (1, 'a');
insert into s values (2, 'a');
-- expect: error collides on its declared UNIQUE constraint
insert or replace into s values (2, 'a');
-- expect: error collides on its declared UNIQUE constraint
select k, v from m;
-- expect: rows
-- | 1 | a |

-- case: an ignore on a maintained table's unique does not skip a derived row either
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, v text);
create table m (k integer primary key, v text, unique (v) on conflict ignore) maintained as select k, v from s;
insert into s values (1, 'a'), (2, 'a');
-- expect: error row derived into maintained table 'main.m' collides on its declared UNIQUE constraint
select count(*) from s;
-- expect: rows
-- | 0 |
