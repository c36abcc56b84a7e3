-- with and with recursive.
create table t (id integer primary key, parent integer, name text);
insert into t values (1, null, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'a1'), (5, 4, 'a1x');

-- case: simple with
with x as (select id, name from t where parent = 1) select name from x;
-- expect: rows
-- | a |
-- | b |

-- case: with column list
with x (k, n) as (select id, name from t) select n from x where k = 3;
-- expect: rows
-- | b |
-- expect: columns n

-- case: two ctes, second reads the first
with x as (select id from t where id > 2), y as (select id * 10 as v from x) select v from y;
-- expect: rows
-- | 30 |
-- | 40 |
-- | 50 |

-- case: recursive counting
with recursive n (i) as (select 1 union all select i + 1 from n where i < 5) select i from n;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |
-- | 4 |
-- | 5 |

-- case: recursive tree walk
with recursive sub (id, depth) as (select id, 0 from t where id = 2 union all select t.id, sub.depth + 1 from t join sub on t.parent = sub.id) select id, depth from sub;
-- expect: rows
-- | 2 | 0 |
-- | 4 | 1 |
-- | 5 | 2 |

-- case: recursive with union removes cycles
with recursive c (x) as (select 1 union select (x % 3) + 1 from c) select x from c;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |

-- case: cte used twice
with x as (select id from t where id <= 2) select a.id, b.id from x a join x b on a.id < b.id;
-- expect: rows
-- | 1 | 2 |

-- case: cte shadows a table
with t as (select 42 as id) select id from t;
-- expect: rows
-- | 42 |

-- case: cte in insert select
create table u (id integer primary key);
insert into u with x as (select id from t where id > 3) select id from x;
select id from u;
-- expect: rows
-- | 4 |
-- | 5 |

-- case: recursive fibonacci
with recursive f (a, b, n) as (select 0, 1, 1 union all select b, a + b, n + 1 from f where n < 10) select a from f where n = 10;
-- expect: rows
-- | 34 |
