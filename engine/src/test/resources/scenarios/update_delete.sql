-- Update and delete: counts, predicates, expressions over the old row, errors.
create table t (k integer primary key, v text, n integer);
insert into t values (1, 'a', 10), (2, 'b', 20), (3, 'c', null), (4, null, 40);

-- case: update all rows counts them
update t set n = 0;
-- expect: count 4
select k, n from t;
-- expect: rows
-- | 1 | 0 |
-- | 2 | 0 |
-- | 3 | 0 |
-- | 4 | 0 |

-- case: update with where
update t set v = 'z' where n > 15;
-- expect: count 2
select k, v from t order by k;
-- expect: rows (ordered)
-- | 1 | a |
-- | 2 | z |
-- | 3 | c |
-- | 4 | z |

-- case: update reads the old row in every assignment
update t set n = n + 1, v = v || n where k = 1;
select v, n from t where k = 1;
-- expect: rows
-- | a10 | 11 |

-- case: update matching nothing counts zero
update t set n = 1 where k = 99;
-- expect: count 0

-- case: update where null comparison matches nothing
update t set n = 1 where n = null;
-- expect: count 0

-- case: update where is null
update t set n = -1 where n is null;
-- expect: count 1
select k from t where n = -1;
-- expect: rows
-- | 3 |

-- case: update primary key moves the row
update t set k = 10 where k = 1;
select k, v from t where k >= 4 order by k;
-- expect: rows (ordered)
-- | 4  | NULL |
-- | 10 | a    |

-- case: update primary key onto an existing key fails
update t set k = 2 where k = 1;
-- expect: error UNIQUE constraint failed: t.k
select k, v from t order by k;
-- expect: rows (ordered)
-- | 1 | a    |
-- | 2 | b    |
-- | 3 | c    |
-- | 4 | NULL |

-- case: update shifting all keys by one fails atomically or succeeds as a whole
update t set k = k + 10;
-- expect: count 4
select k from t order by k;
-- expect: rows (ordered)
-- | 11 |
-- | 12 |
-- | 13 |
-- | 14 |

-- case: update unknown column fails
update t set nope = 1;
-- expect: error no such column: nope

-- case: update unknown table fails
update nope set n = 1;
-- expect: error no such table: nope

-- case: update with unknown column in where fails
update t set n = 1 where zz = 2;
-- expect: error no such column: zz

-- case: update coerces to the column type
update t set n = '77' where k = 1;
select n, typeof(n) from t where k = 1;
-- expect: rows
-- | 77 | integer |

-- case: delete with where counts rows
delete from t where n >= 20;
-- expect: count 2
select k from t;
-- expect: rows
-- | 1 |
-- | 3 |

-- case: delete all rows
delete from t;
-- expect: count 4
select * from t;
-- expect: rows

-- case: delete matching nothing
delete from t where k > 100;
-- expect: count 0

-- case: delete with null predicate deletes nothing
delete from t where null;
-- expect: count 0

-- case: delete by text predicate
delete from t where v in ('a', 'c');
-- expect: count 2
select k from t;
-- expect: rows
-- | 2 |
-- | 4 |

-- case: delete from unknown table fails
delete from nope;
-- expect: error no such table: nope

-- case: delete then reinsert same key
delete from t where k = 1;
insert into t values (1, 'again', 0);
select v from t where k = 1;
-- expect: rows
-- | again |

-- case: update returning
update t set n = n * 2 where k = 1 returning k, n;
-- expect: rows
-- | 1 | 20 |

-- case: delete returning
delete from t where k = 2 returning v;
-- expect: rows
-- | b |
