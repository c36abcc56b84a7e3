-- UNIQUE, CHECK and FOREIGN KEY constraints.

-- case: unique table constraint on two columns
create table t (k integer primary key, a integer, b integer, unique (a, b));
insert into t values (1, 1, 1), (2, 1, 2);
insert into t values (3, 1, 2);
-- expect: error UNIQUE constraint failed: t.a, t.b

-- case: unique allows several nulls
create table t (k integer primary key, e text unique);
insert into t values (1, null), (2, null);
-- expect: count 2

-- case: unique checked on update
create table t (k integer primary key, e text unique);
insert into t values (1, 'a'), (2, 'b');
update t set e = 'a' where k = 2;
-- expect: error UNIQUE constraint failed: t.e

-- case: unique swap in one statement fails row by row as in SQLite
create table t (k integer primary key, e integer unique);
insert into t values (1, 1), (2, 2);
update t set e = 3 - e;
-- expect: error UNIQUE constraint failed: t.e
select k, e from t;
-- expect: rows
-- | 1 | 1 |
-- | 2 | 2 |

-- case: check with null passes
create table t (k integer primary key, n integer check (n > 0));
insert into t values (1, null);
-- expect: count 1

-- case: check on update
create table t (k integer primary key, n integer check (n > 0));
insert into t values (1, 5);
update t set n = -1;
-- expect: error CHECK constraint failed
select n from t;
-- expect: rows
-- | 5 |

-- case: table check over two columns
create table t (k integer primary key, lo integer, hi integer, check (lo <= hi));
insert into t values (1, 1, 2);
insert into t values (2, 3, 2);
-- expect: error CHECK constraint failed

-- case: foreign key rejects missing parent
pragma foreign_keys = on;
create table parent (id integer primary key);
create table child (id integer primary key, pid integer references parent (id));
insert into child values (1, 99);
-- expect: error FOREIGN KEY constraint failed

-- case: foreign key accepts null
pragma foreign_keys = on;
create table parent (id integer primary key);
create table child (id integer primary key, pid integer references parent (id));
insert into child values (1, null);
-- expect: count 1

-- case: foreign key restricts parent delete
pragma foreign_keys = on;
create table parent (id integer primary key);
create table child (id integer primary key, pid integer references parent (id));
insert into parent values (1);
insert into child values (1, 1);
delete from parent where id = 1;
-- expect: error FOREIGN KEY constraint failed

-- case: on delete cascade
pragma foreign_keys = on;
create table parent (id integer primary key);
create table child (id integer primary key, pid integer references parent (id) on delete cascade);
insert into parent values (1), (2);
insert into child values (10, 1), (11, 2), (12, 1);
delete from parent where id = 1;
select id from child;
-- expect: rows
-- | 11 |

-- case: on delete set null
pragma foreign_keys = on;
create table parent (id integer primary key);
create table child (id integer primary key, pid integer references parent (id) on delete set null);
insert into parent values (1);
insert into child values (10, 1);
delete from parent;
select id, pid from child;
-- expect: rows
-- | 10 | NULL |

-- case: a parent delete acts on every table that references it
pragma foreign_keys = on;
create table parent (id integer primary key);
create table unrelated (id integer primary key);
create table cascaded (id integer primary key, pid integer references parent (id) on delete cascade);
create table nulled (id integer primary key, pid integer references parent (id) on delete set null);
insert into parent values (1), (2);
insert into cascaded values (10, 1), (11, 2);
insert into nulled values (20, 1), (21, 2);
delete from parent where id = 1;
select id from cascaded;
-- expect: rows
-- | 11 |
select id, pid from nulled;
-- expect: rows
-- | 20 | NULL |
-- | 21 | 2    |

-- case: on update cascade
pragma foreign_keys = on;
create table parent (id integer primary key);
create table child (id integer primary key, pid integer references parent (id) on update cascade);
insert into parent values (1);
insert into child values (10, 1);
update parent set id = 5;
select pid from child;
-- expect: rows
-- | 5 |

-- case: pragma foreign_keys off allows orphans
pragma foreign_keys = on;
create table parent (id integer primary key);
create table child (id integer primary key, pid integer references parent (id));
pragma foreign_keys = off;
insert into child values (1, 99);
-- expect: count 1

-- case: table-level foreign key
pragma foreign_keys = on;
create table parent (a integer, b integer, primary key (a, b));
create table child (id integer primary key, x integer, y integer, foreign key (x, y) references parent (a, b));
insert into parent values (1, 2);
insert into child values (1, 1, 2);
insert into child values (2, 2, 1);
-- expect: error FOREIGN KEY constraint failed
