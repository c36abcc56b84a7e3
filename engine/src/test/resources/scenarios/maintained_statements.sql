-- The statement forms of semantics §2 (tags, the refused maintained-table verbs), the
-- materialized-view pragmas, analyze, and alter table add/drop constraint.
create table t (k integer primary key, v text, n integer);
insert into t values (1, 'a', 10), (2, 'b', 20), (3, 'c', null);
create materialized view mv as select k, v from t where n > 5 with tags (owner = 'ops', tier = '1');

-- case: create with tags shows them in schema
-- derive-only: tags and schema() are Derive's
select tags from schema() where name = 'mv';
-- expect: rows
-- | {"owner":"ops","tier":"1"} |

-- case: materialized_views shows tags
-- derive-only: materialized_views() is Derive's
select name, tags from materialized_views();
-- expect: rows
-- | mv | {"owner":"ops","tier":"1"} |

-- case: canonical ddl carries the tags
-- derive-only: schema() is Derive's
select sql from schema() where name = 'mv';
-- expect: rows
-- | create table main.mv (k integer not null, v text, primary key (k)) using {host} maintained as select k, v from t where n > 5 with tags (owner = 'ops', tier = '1') |

-- case: add tags overwrites and appends
-- derive-only: alter materialized view is Derive's
alter materialized view mv add tags (tier = '2', team = 'data');
select tags from schema() where name = 'mv';
-- expect: rows
-- | {"owner":"ops","tier":"2","team":"data"} |

-- case: set tags replaces
-- derive-only: alter materialized view is Derive's
alter materialized view mv set tags (a = 'b');
select tags from materialized_views();
-- expect: rows
-- | {"a":"b"} |

-- case: drop tags removes keys
-- derive-only: alter materialized view is Derive's
alter materialized view mv drop tags (owner, tier);
select tags from schema() where name = 'mv';
-- expect: rows
-- | {} |

-- case: drop of an absent tag fails
-- derive-only: alter materialized view is Derive's
alter materialized view mv drop tags (nope);
-- expect: error no such tag: nope

-- case: tag change keeps maintenance
-- derive-only: materialized views are Derive's
alter materialized view mv add tags (x = 'y');
insert into t values (4, 'd', 40);
select k from mv;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 4 |

-- case: tags on unknown view
-- derive-only: alter materialized view is Derive's
alter materialized view nope set tags (a = 'b');
-- expect: error no such materialized view: nope

-- case: tags on a table
-- derive-only: alter materialized view is Derive's
alter materialized view t set tags (a = 'b');
-- expect: error 't' is a table, not a materialized view

-- case: tags through alter table
-- derive-only: tags are Derive's
alter table mv add tags (a = 'b');
-- expect: error use ALTER MATERIALIZED VIEW for tags

-- case: alter table of a view's shape
-- derive-only: materialized views are Derive's
alter table mv add column z text;
-- expect: error its shape is defined by the view body

-- case: the table form creates and fills a declared table
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, v text) maintained as select k, v from t;
select count(*) from s;
-- expect: rows
-- | 3 |

-- case: set maintained with a body reading no table is refused by the gates
-- derive-only: maintained tables are Derive's
alter table t set maintained as select 1 as k;
-- expect: error reads no source table

-- case: drop maintained keeps the rows
-- derive-only: maintained tables are Derive's
alter table mv drop maintained;
select count(*) from materialized_views() where name = 'mv';
-- expect: rows
-- | 0 |

-- case: refresh schedule is shown and dropped
-- derive-only: refresh schedules are Derive's
alter materialized view mv set refresh schedule '*/5 * * * *';
select refresh_schedule from materialized_views() where name = 'mv';
-- expect: rows
-- | */5 * * * * |
alter materialized view mv drop refresh schedule;
select refresh_schedule from materialized_views() where name = 'mv';
-- expect: rows
-- | NULL |

-- case: mv pragma defaults
-- derive-only: Derive's pragmas
pragma materialized_view_rebuild_row_threshold;
-- expect: rows
-- | 10000 |
pragma nondeterministic_schema;
-- expect: rows
-- | 0 |
pragma ddl_transaction_policy;
-- expect: rows
-- | permissive |

-- case: strict policy refuses refresh in a transaction
-- derive-only: Derive's pragma
pragma ddl_transaction_policy = 'strict';
begin;
refresh materialized view mv;
-- expect: error ddl_transaction_policy is 'strict'
commit;
refresh materialized view mv;

-- case: analyze collects row counts
-- derive-only: statistics() is Derive's
analyze t;
select name, row_count from statistics();
-- expect: rows
-- | t | 3 |

-- case: analyze all tables includes views
-- derive-only: statistics() is Derive's
analyze;
select name, row_count from statistics();
-- expect: rows
-- | t  | 3 |
-- | mv | 2 |

-- case: analyze rolls back
-- derive-only: statistics() is Derive's
begin;
analyze;
rollback;
select count(*) from statistics();
-- expect: rows
-- | 0 |

-- case: add check validates existing rows
-- derive-only: SQLite has no alter table add constraint
create table p (id integer primary key, age integer);
insert into p values (1, 30), (2, 10);
alter table p add constraint adult check (age >= 18);
-- expect: error CHECK constraint failed: adult

-- case: add check then enforce
-- derive-only: SQLite has no alter table add constraint
create table p (id integer primary key, age integer);
insert into p values (1, 30);
alter table p add constraint adult check (age >= 18);
insert into p values (2, 10);
-- expect: error CHECK constraint failed: adult

-- case: add unique fails on duplicates
-- derive-only: SQLite has no alter table add constraint
create table p (id integer primary key, a integer, b integer);
insert into p values (1, 1, 1), (2, 1, 1);
alter table p add constraint uab unique (a, b);
-- expect: error UNIQUE constraint failed: p.a, p.b

-- case: add unique then enforce
-- derive-only: SQLite has no alter table add constraint
create table p (id integer primary key, a integer);
insert into p values (1, 1);
alter table p add unique (a);
insert into p values (2, 1);
-- expect: error UNIQUE constraint failed: p.a

-- case: add foreign key checks existing rows
-- derive-only: SQLite has no alter table add constraint
create table parent (id integer primary key);
create table child (id integer primary key, pid integer);
insert into child values (1, 5);
alter table child add constraint fk foreign key (pid) references parent (id);
-- expect: error FOREIGN KEY constraint failed

-- case: drop constraint lifts a check
-- derive-only: SQLite has no alter table drop constraint
create table p (id integer primary key, age integer, constraint adult check (age >= 18));
alter table p drop constraint adult;
insert into p values (1, 5);
-- expect: count 1

-- case: drop unknown constraint
-- derive-only: SQLite has no alter table drop constraint
alter table t drop constraint nope;
-- expect: error no such constraint: nope

-- case: rollback undoes drop constraint
-- derive-only: SQLite has no alter table drop constraint
create table p (id integer primary key, age integer, constraint adult check (age >= 18));
begin;
alter table p drop constraint adult;
rollback;
insert into p values (1, 5);
-- expect: error CHECK constraint failed: adult
