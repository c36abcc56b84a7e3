-- SQLite's INDEXED BY and NOT INDEXED: plan choices that never change a result, on queries,
-- joins, updates and deletes; a named index the table lacks is an error.
create table t (k integer primary key, g integer, v text);
create index t_g on t (g);
create index t_v on t (v);
create index t_big on t (v) where g > 2;
create table p (g integer primary key, name text);
insert into t values (1, 1, 'a'), (2, 2, 'b'), (3, 2, 'c'), (4, 3, 'd'), (5, 3, 'e');
insert into p values (1, 'one'), (2, 'two'), (3, 'three');

-- case: indexed by seeks the named index
select k from t indexed by t_g where g = 2 order by k;
-- expect: rows (ordered)
-- | 2 |
-- | 3 |

-- case: indexed by an index no condition fixes reads all of it
select k, v from t indexed by t_v where k > 3 order by k;
-- expect: rows (ordered)
-- | 4 | d |
-- | 5 | e |

-- case: an alias before indexed by
select x.k from t as x indexed by t_g where x.g = 3 order by x.k;
-- expect: rows (ordered)
-- | 4 |
-- | 5 |

-- case: not indexed on both sides of a join
select t.k, p.name from t not indexed join p not indexed on p.g = t.g where t.v >= 'c' order by t.k;
-- expect: rows (ordered)
-- | 3 | two   |
-- | 4 | three |
-- | 5 | three |

-- case: update and delete with index clauses
update t indexed by t_v set g = 9 where v = 'b';
-- expect: count 1
delete from t not indexed where g = 3;
-- expect: count 2
select k, g from t order by k;
-- expect: rows (ordered)
-- | 1 | 1 |
-- | 2 | 9 |
-- | 3 | 2 |

-- case: indexed by an index of another table fails
create index p_name on p (name);
select * from t indexed by p_name where g = 1;
-- expect: error no such index: p_name

-- case: indexed by a missing index fails in a delete too
delete from t indexed by nope where g = 1;
-- expect: error no such index: nope
