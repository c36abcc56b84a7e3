-- create index / drop index, unique and partial indexes.
create table t (k integer primary key, e text, n integer);
insert into t values (1, 'a', 10), (2, 'b', 20), (3, 'c', 10);

-- case: create index keeps query results
create index t_n on t (n);
select k from t where n = 10;
-- expect: rows
-- | 1 |
-- | 3 |

-- case: index follows writes
create index t_n on t (n);
update t set n = 30 where k = 1;
insert into t values (4, 'd', 10);
delete from t where k = 3;
select k from t where n = 10;
-- expect: rows
-- | 4 |

-- case: range query over an index
create index t_n on t (n);
select k from t where n > 5 and n < 15 order by k;
-- expect: rows (ordered)
-- | 1 |
-- | 3 |

-- case: unique index rejects duplicates
create unique index t_e on t (e);
insert into t values (4, 'a', 0);
-- expect: error UNIQUE constraint failed: t.e

-- case: unique index over existing duplicates fails
create unique index t_n on t (n);
-- expect: error UNIQUE constraint failed: t.n

-- case: partial unique index
create unique index t_n_big on t (n) where n > 15;
insert into t values (4, 'd', 10);
insert into t values (5, 'e', 20);
-- expect: error UNIQUE constraint failed: t.n

-- case: drop index
create unique index t_e on t (e);
drop index t_e;
insert into t values (4, 'a', 0);
-- expect: count 1

-- case: create index twice fails
create index i on t (n);
create index i on t (e);
-- expect: error index i already exists

-- case: create index if not exists
create index i on t (n);
create index if not exists i on t (e);
select 1;
-- expect: rows
-- | 1 |

-- case: drop unknown index fails
drop index nope;
-- expect: error no such index: nope

-- case: index on unknown column fails
create index i on t (zz);
-- expect: error no such column: zz

-- case: index creation is undone by rollback
begin;
create unique index t_e on t (e);
rollback;
insert into t values (4, 'a', 0);
-- expect: count 1

-- case: multi-column index prefix seek
create index i on t (n, e);
select k from t where n = 10 and e >= 'b';
-- expect: rows
-- | 3 |
