-- alter table forms of semantics.md §1.
create table t (k integer primary key, v text, n integer);
insert into t values (1, 'a', 10), (2, 'b', null);

-- case: rename table
alter table t rename to u;
select v from u where k = 1;
-- expect: rows
-- | a |

-- case: old name is gone after rename
alter table t rename to u;
select * from t;
-- expect: error no such table: t

-- case: add column fills null
alter table t add column w text;
select k, w from t;
-- expect: rows
-- | 1 | NULL |
-- | 2 | NULL |

-- case: add column with default
alter table t add column w integer default 5;
select k, w from t;
-- expect: rows
-- | 1 | 5 |
-- | 2 | 5 |

-- case: add column without column keyword
alter table t add w text;
insert into t values (3, 'c', 1, 'x');
select w from t where k = 3;
-- expect: rows
-- | x |

-- case: drop column
alter table t drop column n;
select * from t where k = 1;
-- expect: rows
-- | 1 | a |

-- case: rename column
alter table t rename column v to value;
select value from t where k = 2;
-- expect: rows
-- | b |

-- case: add existing column fails
alter table t add column v text;
-- expect: error duplicate column name: v

-- case: drop unknown column fails
alter table t drop column zz;
-- expect: error no such column

-- case: alter unknown table fails
alter table nope add column x integer;
-- expect: error no such table: nope

-- case: alter is undone by rollback
begin;
alter table t add column w text;
rollback;
select * from t where k = 1;
-- expect: rows
-- | 1 | a | 10 |

-- case: alter column set not null
-- derive-only: SQLite has no alter column
alter table t alter column v set not null;
insert into t values (3, null, 1);
-- expect: error NOT NULL constraint failed: t.v

-- case: alter column set not null fails over existing nulls
-- derive-only: SQLite has no alter column
alter table t alter column n set not null;
-- expect: error NOT NULL constraint failed: t.n

-- case: alter column drop not null
-- derive-only: SQLite has no alter column
create table m (k integer primary key, v text not null);
alter table m alter column v drop not null;
insert into m values (1, null);
-- expect: count 1

-- case: alter column set data type
-- derive-only: SQLite has no alter column
alter table t alter column n set data type text;
select typeof(n) from t where k = 1;
-- expect: rows
-- | text |
