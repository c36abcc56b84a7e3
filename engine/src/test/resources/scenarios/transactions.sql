-- begin / commit / rollback, statement atomicity, transactional DDL.
create table t (k integer primary key, v text);
insert into t values (1, 'a');

-- case: commit keeps writes
begin;
insert into t values (2, 'b');
commit;
select k from t;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: rollback undoes writes
begin;
insert into t values (2, 'b');
update t set v = 'changed' where k = 1;
rollback;
select k, v from t;
-- expect: rows
-- | 1 | a |

-- case: reads own writes inside a transaction
begin;
insert into t values (2, 'b');
select k from t;
-- expect: rows
-- | 1 |
-- | 2 |
rollback;

-- case: rollback undoes delete
begin;
delete from t;
select * from t;
-- expect: rows
rollback;
select k from t;
-- expect: rows
-- | 1 |

-- case: begin transaction and end transaction keywords
begin transaction;
insert into t values (3, 'c');
end transaction;
select k from t;
-- expect: rows
-- | 1 |
-- | 3 |

-- case: commit transaction keyword
begin;
insert into t values (3, 'c');
commit transaction;
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: commit without transaction fails
commit;
-- expect: error no transaction is active

-- case: rollback without transaction fails
rollback;
-- expect: error no transaction is active

-- case: begin twice fails
begin;
begin;
-- expect: error cannot start a transaction within a transaction
rollback;

-- case: failing statement inside transaction keeps earlier writes
begin;
insert into t values (2, 'b');
insert into t values (3, 'c'), (1, 'dup');
-- expect: error UNIQUE constraint failed: t.k
commit;
select k from t;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: failing statement in autocommit leaves no trace
insert into t values (5, 'e'), (6, 'f'), (1, 'dup');
-- expect: error UNIQUE constraint failed: t.k
select k from t;
-- expect: rows
-- | 1 |

-- case: failing update leaves no trace
insert into t values (2, 'b'), (3, 'c');
update t set k = k + 1;
-- expect: error UNIQUE constraint failed: t.k
select k, v from t order by k;
-- expect: rows (ordered)
-- | 1 | a |
-- | 2 | b |
-- | 3 | c |

-- case: transaction continues after a failed statement
begin;
insert into t values (1, 'dup');
-- expect: error UNIQUE constraint failed: t.k
insert into t values (4, 'd');
commit;
select k from t;
-- expect: rows
-- | 1 |
-- | 4 |

-- case: create table is undone by rollback
begin;
create table u (k integer primary key);
insert into u values (1);
rollback;
select * from u;
-- expect: error no such table: u

-- case: drop table is undone by rollback
begin;
drop table t;
rollback;
select v from t;
-- expect: rows
-- | a |

-- case: create table inside transaction is visible to it
begin;
create table u (k integer primary key);
insert into u values (1);
select k from u;
-- expect: rows
-- | 1 |
commit;
select k from u;
-- expect: rows
-- | 1 |

-- case: drop and recreate inside one transaction
begin;
drop table t;
create table t (k integer primary key, w integer);
insert into t values (9, 9);
commit;
select * from t;
-- expect: rows
-- | 9 | 9 |

-- case: many statements then rollback
begin;
insert into t values (2, 'b');
insert into t values (3, 'c');
update t set v = upper(v);
delete from t where k = 2;
rollback;
select k, v from t;
-- expect: rows
-- | 1 | a |

-- case: two transactions in sequence
begin;
insert into t values (2, 'b');
commit;
begin;
insert into t values (3, 'c');
rollback;
select k from t;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: not null failure inside transaction keeps transaction
create table n (k integer primary key, v text not null);
begin;
insert into n values (1, 'x');
insert into n values (2, null);
-- expect: error NOT NULL constraint failed: n.v
commit;
select k from n;
-- expect: rows
-- | 1 |
