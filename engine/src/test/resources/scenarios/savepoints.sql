-- savepoint, release, rollback to.
create table t (k integer primary key, v text);
insert into t values (1, 'a');

-- case: rollback to savepoint undoes later writes
begin;
insert into t values (2, 'b');
savepoint s1;
insert into t values (3, 'c');
rollback to s1;
commit;
select k from t;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: release keeps writes
begin;
savepoint s1;
insert into t values (2, 'b');
release s1;
commit;
select k from t;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: nested savepoints
begin;
savepoint a;
insert into t values (2, 'b');
savepoint b;
insert into t values (3, 'c');
rollback to a;
insert into t values (4, 'd');
commit;
select k from t;
-- expect: rows
-- | 1 |
-- | 4 |

-- case: rollback to keeps the savepoint
begin;
savepoint s;
insert into t values (2, 'b');
rollback to s;
insert into t values (3, 'c');
rollback to savepoint s;
commit;
select k from t;
-- expect: rows
-- | 1 |

-- case: savepoint outside a transaction starts one
savepoint s;
insert into t values (2, 'b');
rollback to s;
release s;
select k from t;
-- expect: rows
-- | 1 |

-- case: rollback to unknown savepoint fails
begin;
rollback to nope;
-- expect: error no such savepoint: nope

-- case: release unknown savepoint fails
begin;
release nope;
-- expect: error no such savepoint: nope

-- case: savepoint undoes ddl
begin;
savepoint s;
create table u (k integer primary key);
rollback to s;
commit;
select * from u;
-- expect: error no such table: u

-- case: release savepoint keyword
begin;
savepoint s;
update t set v = 'z';
release savepoint s;
commit;
select v from t;
-- expect: rows
-- | z |
