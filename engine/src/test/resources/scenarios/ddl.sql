-- Create and drop tables: names, types, defaults, if [not] exists.

-- case: create then select empty table
create table t (k integer primary key, v text);
select * from t;
-- expect: rows
-- expect: columns k, v

-- case: create table twice fails
create table t (k integer primary key);
create table t (k integer primary key);
-- expect: error already exists

-- case: create table if not exists keeps the first
create table t (k integer primary key, v text);
insert into t values (1, 'a');
create table if not exists t (k integer primary key);
select * from t;
-- expect: rows
-- | 1 | a |

-- case: names are case-insensitive
create table Items (K integer primary key, Name text);
insert into ITEMS (k, NAME) values (1, 'x');
select name from items where K = 1;
-- expect: rows
-- | x |

-- case: drop table removes it
create table t (k integer primary key);
drop table t;
select * from t;
-- expect: error no such table: t

-- case: drop unknown table fails
drop table nope;
-- expect: error no such table: nope

-- case: drop table if exists on unknown is fine
drop table if exists nope;
select 1;
-- expect: rows
-- | 1 |

-- case: drop and recreate gives an empty table
create table t (k integer primary key, v text);
insert into t values (1, 'a');
drop table t;
create table t (k integer primary key, w integer);
select * from t;
-- expect: rows
-- expect: columns k, w

-- case: type aliases are accepted
create table t (a int primary key, b bigint, c smallint, d double, e float, f varchar(10), g char(3), h clob);
insert into t values (1, 2, 3, 4, 5, 'x', 'y', 'z');
select a, b, c, d, e, f, g, h from t;
-- expect: rows
-- | 1 | 2 | 3 | 4.0 | 5.0 | x | y | z |

-- case: default values fill omitted columns
create table t (k integer primary key, v text default 'none', n integer default 7);
insert into t (k) values (1);
select * from t;
-- expect: rows
-- | 1 | none | 7 |

-- case: default expression in parentheses
create table t (k integer primary key, n integer default (2 * 3));
insert into t (k) values (1);
select n from t;
-- expect: rows
-- | 6 |

-- case: explicit null overrides the default
create table t (k integer primary key, v text default 'd');
insert into t values (1, null);
select v is null from t;
-- expect: rows
-- | 1 |

-- case: composite primary key
create table t (a integer, b text, v integer, primary key (a, b));
insert into t values (1, 'x', 10), (1, 'y', 20), (2, 'x', 30);
select v from t where a = 1 and b = 'y';
-- expect: rows
-- | 20 |

-- case: composite primary key duplicate fails
create table t (a integer, b text, primary key (a, b));
insert into t values (1, 'x');
insert into t values (1, 'x');
-- expect: error UNIQUE constraint failed: t.a, t.b

-- case: quoted identifiers keep case and allow spaces
create table "My Table" ("Key" integer primary key, "some value" text);
insert into "My Table" values (1, 'a');
select "some value" from "My Table";
-- expect: rows
-- | a |

-- case: keyword-like column names can be quoted
create table t (k integer primary key, "select" text, "from" text);
insert into t values (1, 'a', 'b');
select "select", "from" from t;
-- expect: rows
-- | a | b |

-- case: select star keeps declaration order
create table t (z text, a integer primary key, m real);
insert into t values ('x', 1, 2.5);
select * from t;
-- expect: rows
-- | x | 1 | 2.5 |
-- expect: columns z, a, m

-- case: a table without a primary key is a bag
create table t (a integer, b text);
insert into t values (1, 'x'), (1, 'x'), (2, null);
select a, b from t;
-- expect: rows
-- | 1 | x    |
-- | 1 | x    |
-- | 2 | NULL |

-- case: primary key descending is accepted
create table t (k integer primary key desc, v text);
insert into t values (1, 'a'), (2, 'b');
select v from t order by k;
-- expect: rows (ordered)
-- | a |
-- | b |
