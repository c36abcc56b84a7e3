-- create view / drop view.
create table t (k integer primary key, v text, n integer);
insert into t values (1, 'a', 10), (2, 'b', 20), (3, 'c', null);

-- case: view returns its query
create view big as select k, v from t where n > 15;
select * from big;
-- expect: rows
-- | 2 | b |

-- case: view follows base table changes
create view big as select k, v from t where n > 15;
insert into t values (4, 'd', 99);
select k from big;
-- expect: rows
-- | 2 |
-- | 4 |

-- case: view with column list
create view w (a, b) as select k, v from t;
select b from w where a = 3;
-- expect: rows
-- | c |

-- case: view in a where filter and order
create view w as select k, n * 2 as d from t;
select k from w where d > 25 order by k;
-- expect: rows (ordered)
-- | 2 |

-- case: drop view
create view w as select k from t;
drop view w;
select * from w;
-- expect: error no such table: w

-- case: drop view if exists
drop view if exists nope;
select 1;
-- expect: rows
-- | 1 |

-- case: create view twice fails
create view w as select k from t;
create view w as select k from t;
-- expect: error already exists

-- case: create view if not exists
create view w as select k from t where k = 1;
create view if not exists w as select k from t;
select k from w;
-- expect: rows
-- | 1 |

-- case: insert into view fails
create view w as select k from t;
insert into w values (9);
-- expect: error cannot modify w because it is a view

-- case: drop table on a view fails
-- derive-only: wording
create view w as select k from t;
drop table w;
-- expect: error use DROP VIEW

-- case: view over view
create view w1 as select k, n from t where n is not null;
create view w2 as select k from w1 where n < 15;
select k from w2;
-- expect: rows
-- | 1 |

-- case: view is undone by rollback
begin;
create view w as select k from t;
rollback;
select * from w;
-- expect: error no such table: w
