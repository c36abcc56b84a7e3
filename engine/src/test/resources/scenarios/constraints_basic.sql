-- NOT NULL and PRIMARY KEY enforcement, with SQLite's wording.

-- case: not null column rejects null
create table t (k integer primary key, v text not null);
insert into t values (1, null);
-- expect: error NOT NULL constraint failed: t.v

-- case: not null column rejects omission
create table t (k integer primary key, v text not null);
insert into t (k) values (1);
-- expect: error NOT NULL constraint failed: t.v

-- case: not null rejects update to null
create table t (k integer primary key, v text not null);
insert into t values (1, 'a');
update t set v = null;
-- expect: error NOT NULL constraint failed: t.v
select v from t;
-- expect: rows
-- | a |

-- case: not null with default is satisfied by omission
create table t (k integer primary key, v text not null default 'd');
insert into t (k) values (1);
select v from t;
-- expect: rows
-- | d |

-- case: nullable column accepts null explicitly declared
create table t (k integer primary key, v text null);
insert into t values (1, null);
select v from t;
-- expect: rows
-- | NULL |

-- case: primary key rejects duplicates
create table t (k integer primary key);
insert into t values (1);
insert into t values (1);
-- expect: error UNIQUE constraint failed: t.k

-- case: text primary key rejects duplicates
create table t (name text primary key, n integer);
insert into t values ('a', 1);
insert into t values ('a', 2);
-- expect: error UNIQUE constraint failed: t.name

-- case: text primary key rejects null
-- derive-only: SQLite allows NULL in a non-integer primary key (a legacy quirk); Derive does not
create table t (name text primary key, n integer);
insert into t values (null, 1);
-- expect: error NOT NULL constraint failed: t.name

-- case: composite key allows partial overlap
create table t (a integer, b integer, primary key (a, b));
insert into t values (1, 1), (1, 2), (2, 1);
-- expect: count 3

-- case: composite key rejects full duplicate
create table t (a integer, b integer, primary key (a, b));
insert into t values (1, 1), (1, 2);
insert into t values (1, 2);
-- expect: error UNIQUE constraint failed: t.a, t.b

-- case: failed constraint names the first failing row atomically
create table t (k integer primary key, v text not null);
insert into t values (1, 'a'), (2, null), (3, 'c');
-- expect: error NOT NULL constraint failed: t.v
select * from t;
-- expect: rows

-- case: not null on a composite key column
create table t (a integer not null, b text not null, primary key (a, b));
insert into t values (1, null);
-- expect: error NOT NULL constraint failed: t.b

-- case: two primary keys fail
create table t (a integer primary key, b integer primary key);
-- expect: error more than one primary key

-- case: primary key on unknown column fails
-- derive-only: message wording
create table t (a integer, primary key (zz));
-- expect: error zz

-- case: duplicate column name fails
create table t (a integer primary key, a text);
-- expect: error duplicate column name: a

-- case: unknown type name fails
-- derive-only: SQLite accepts any type name
create table t (a integer primary key, b whatever);
-- expect: error unknown type 'whatever'

-- case: integer primary key accepts integral text
create table t (k integer primary key);
insert into t values ('12');
select k, typeof(k) from t;
-- expect: rows
-- | 12 | integer |

-- case: unique column constraint
create table t (k integer primary key, e text unique);
insert into t values (1, 'a');
insert into t values (2, 'a');
-- expect: error UNIQUE constraint failed: t.e

-- case: check constraint
create table t (k integer primary key, n integer check (n > 0));
insert into t values (1, 0);
-- expect: error CHECK constraint failed

-- case: named check constraint
create table t (k integer primary key, n integer, constraint positive check (n > 0));
insert into t values (1, -5);
-- expect: error CHECK constraint failed: positive
