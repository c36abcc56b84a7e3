-- or abort|fail|ignore|replace|rollback and on conflict do nothing|do update.
create table t (k integer primary key, v text);
insert into t values (1, 'a'), (2, 'b');

-- case: insert or ignore skips the conflicting row
insert or ignore into t values (2, 'x'), (3, 'c');
-- expect: count 1
select k, v from t;
-- expect: rows
-- | 1 | a |
-- | 2 | b |
-- | 3 | c |

-- case: insert or replace replaces the row
insert or replace into t values (2, 'x');
select v from t where k = 2;
-- expect: rows
-- | x |

-- case: replace into is insert or replace
replace into t values (1, 'z');
select v from t where k = 1;
-- expect: rows
-- | z |

-- case: insert or abort undoes the statement
insert or abort into t values (3, 'c'), (1, 'dup');
-- expect: error UNIQUE constraint failed: t.k
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: insert or fail keeps earlier rows of the statement
insert or fail into t values (3, 'c'), (1, 'dup'), (4, 'd');
-- expect: error UNIQUE constraint failed: t.k
select k from t;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |

-- case: insert or rollback ends the transaction
begin;
insert into t values (5, 'e');
insert or rollback into t values (1, 'dup');
-- expect: error UNIQUE constraint failed: t.k
select k from t;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: update or ignore
update or ignore t set k = 2 where k = 1;
select k, v from t;
-- expect: rows
-- | 1 | a |
-- | 2 | b |

-- case: update or replace
update or replace t set k = 2 where k = 1;
select k, v from t;
-- expect: rows
-- | 2 | a |

-- case: on conflict do nothing
insert into t values (1, 'x') on conflict (k) do nothing;
select v from t where k = 1;
-- expect: rows
-- | a |

-- case: on conflict do update
insert into t values (1, 'x') on conflict (k) do update set v = v || excluded.v;
select v from t where k = 1;
-- expect: rows
-- | ax |

-- case: on conflict do update with where
insert into t values (1, 'x'), (2, 'y') on conflict (k) do update set v = excluded.v where t.k = 2;
select k, v from t;
-- expect: rows
-- | 1 | a |
-- | 2 | y |

-- case: or ignore on not null
create table n (k integer primary key, v text not null);
insert or ignore into n values (1, null), (2, 'ok');
select k from n;
-- expect: rows
-- | 2 |

-- case: or replace on not null with default uses the default
create table n (k integer primary key, v text not null default 'dflt');
insert or replace into n values (1, null);
select v from n;
-- expect: rows
-- | dflt |
