-- Materialized views ride the writing transaction (semantics §1 transactions, §2 refresh, §4).
create table t (k integer primary key, g text, v integer not null);
insert into t values (1, 'a', 10), (2, 'a', 20), (3, 'b', 30);
create materialized view pr as select k, v from t where v > 15;
create materialized view gr as select g, count(*) as n, sum(v) as s from t group by g;
create materialized view fr as select distinct g from t;

-- case: rollback undoes all three arms
-- derive-only: materialized views
begin;
insert into t values (4, 'c', 40);
delete from t where k = 1;
rollback;
select (select count(*) from pr), (select count(*) from gr), (select count(*) from fr);
-- expect: rows
-- | 2 | 2 | 2 |

-- case: the writer reads its own maintained rows
-- derive-only: materialized views
begin;
insert into t values (4, 'c', 40);
select g, n from gr where g = 'c';
-- expect: rows
-- | c | 1 |
select g from fr where g = 'c';
-- expect: rows
-- | c |
commit;

-- case: commit keeps maintenance
-- derive-only: materialized views
begin;
update t set v = 5 where k = 2;
commit;
select k from pr;
-- expect: rows
-- | 3 |
select s from gr where g = 'a';
-- expect: rows
-- | 15 |

-- case: rollback to a savepoint undoes only the later writes
-- derive-only: materialized views
begin;
insert into t values (4, 'c', 40);
savepoint s1;
insert into t values (5, 'd', 50);
update t set g = 'c' where k = 1;
rollback to s1;
commit;
select g, n from gr;
-- expect: rows
-- | a | 2 |
-- | b | 1 |
-- | c | 1 |
select g from fr;
-- expect: rows
-- | a |
-- | b |
-- | c |

-- case: release keeps the savepoint's writes
-- derive-only: materialized views
begin;
savepoint s1;
delete from t where k = 3;
release s1;
commit;
select count(*) from fr;
-- expect: rows
-- | 1 |

-- case: nested savepoints
-- derive-only: materialized views
begin;
savepoint s1;
insert into t values (4, 'c', 40);
savepoint s2;
insert into t values (5, 'c', 50);
rollback to s2;
select n, s from gr where g = 'c';
-- expect: rows
-- | 1 | 40 |
rollback to s1;
select count(*) from gr where g = 'c';
-- expect: rows
-- | 0 |
commit;

-- case: failing statement inside a transaction leaves the views
-- derive-only: materialized views
begin;
insert into t values (4, 'c', 40);
insert into t values (5, 'd', 50), (1, 'dup', 0);
-- expect: error UNIQUE constraint failed: t.k
commit;
select g from fr;
-- expect: rows
-- | a |
-- | b |
-- | c |

-- case: not null failure midway leaves nothing
-- derive-only: materialized views
update t set v = case when k = 3 then null else v + 1 end;
-- expect: error NOT NULL constraint failed: t.v
select s from gr where g = 'a';
-- expect: rows
-- | 30 |

-- case: insert or fail keeps the rows before the failing one
-- derive-only: materialized views
insert or fail into t values (4, 'c', 40), (1, 'dup', 0), (5, 'd', 50);
-- expect: error UNIQUE constraint failed: t.k
select g, n from gr;
-- expect: rows
-- | a | 2 |
-- | b | 1 |
-- | c | 1 |
select k from pr;
-- expect: rows
-- | 2 |
-- | 3 |
-- | 4 |

-- case: insert or fail inside a transaction then rollback
-- derive-only: materialized views
begin;
insert or fail into t values (4, 'c', 40), (1, 'dup', 0);
-- expect: error UNIQUE constraint failed: t.k
select count(*) from fr;
-- expect: rows
-- | 3 |
rollback;
select count(*) from fr;
-- expect: rows
-- | 2 |

-- case: insert or rollback ends the transaction and undoes the views
-- derive-only: materialized views
begin;
insert into t values (4, 'c', 40);
insert or rollback into t values (1, 'dup', 0);
-- expect: error UNIQUE constraint failed: t.k
select count(*) from gr;
-- expect: rows
-- | 2 |

-- case: refresh inside a rolled back transaction
-- derive-only: materialized views
begin;
refresh materialized view gr;
insert into t values (4, 'c', 40);
rollback;
select g, n from gr;
-- expect: rows
-- | a | 2 |
-- | b | 1 |

-- case: refresh keeps maintenance armed
-- derive-only: materialized views
refresh materialized view pr;
insert into t values (4, 'c', 40);
select k from pr;
-- expect: rows
-- | 2 |
-- | 3 |
-- | 4 |

-- case: refresh counts a body evaluation
-- derive-only: materialized views
refresh materialized view pr;
select body_evaluations from materialized_views() where name = 'pr';
-- expect: rows
-- | 2 |

-- case: drop inside a rolled back transaction keeps maintaining
-- derive-only: materialized views
begin;
drop materialized view gr;
rollback;
insert into t values (4, 'c', 40);
select count(*) from gr;
-- expect: rows
-- | 3 |

-- case: create inside a transaction sees earlier writes
-- derive-only: materialized views
begin;
insert into t values (4, 'c', 40);
create materialized view mv as select k from t where v >= 40;
select k from mv;
-- expect: rows
-- | 4 |
rollback;
select count(*) from materialized_views();
-- expect: rows
-- | 3 |

-- case: create in a transaction rolled back to a savepoint
-- derive-only: materialized views
begin;
savepoint s1;
create materialized view mv as select k from t;
rollback to s1;
commit;
select * from mv;
-- expect: error no such table: mv

-- case: strict policy refuses create in a transaction
-- derive-only: materialized views
pragma ddl_transaction_policy = 'strict';
begin;
create materialized view mv as select k from t;
-- expect: error ddl_transaction_policy is 'strict'
rollback;

-- case: strict policy allows create outside a transaction
-- derive-only: materialized views
pragma ddl_transaction_policy = 'strict';
create materialized view mv as select k from t;
select count(*) from mv;
-- expect: rows
-- | 3 |

-- case: another session sees only committed view rows
-- derive-only: materialized views
begin;
insert into t values (4, 'c', 40);
select count(*) from fr;
-- expect: rows
-- | 3 |
rollback;

-- case: delete everything then rollback
-- derive-only: materialized views
begin;
delete from t;
select (select count(*) from pr), (select count(*) from gr), (select count(*) from fr);
-- expect: rows
-- | 0 | 0 | 0 |
rollback;
select (select count(*) from pr), (select count(*) from gr), (select count(*) from fr);
-- expect: rows
-- | 2 | 2 | 2 |
