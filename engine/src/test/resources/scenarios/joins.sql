-- Joins of every kind (semantics.md §1).
create table a (id integer primary key, x text, bid integer);
create table b (id integer primary key, y text);
create table c (id integer primary key, aid integer, z integer);
insert into a values (1, 'a1', 10), (2, 'a2', 20), (3, 'a3', null), (4, 'a4', 99);
insert into b values (10, 'b10'), (20, 'b20'), (30, 'b30');
insert into c values (100, 1, 5), (101, 1, 6), (102, 2, 7), (103, null, 8);

-- case: inner join on
select a.x, b.y from a join b on a.bid = b.id;
-- expect: rows
-- | a1 | b10 |
-- | a2 | b20 |

-- case: inner join keyword
select a.id, b.id from a inner join b on a.bid = b.id where b.y = 'b20';
-- expect: rows
-- | 2 | 20 |

-- case: comma join with where
select a.x, b.y from a, b where a.bid = b.id;
-- expect: rows
-- | a1 | b10 |
-- | a2 | b20 |

-- case: left join keeps unmatched left rows
select a.x, b.y from a left join b on a.bid = b.id;
-- expect: rows
-- | a1 | b10  |
-- | a2 | b20  |
-- | a3 | NULL |
-- | a4 | NULL |

-- case: left outer join keyword
select a.id from a left outer join b on a.bid = b.id where b.id is null;
-- expect: rows
-- | 3 |
-- | 4 |

-- case: right join keeps unmatched right rows
select a.x, b.y from a right join b on a.bid = b.id;
-- expect: rows
-- | a1   | b10 |
-- | a2   | b20 |
-- | NULL | b30 |

-- case: full join keeps both sides
select a.x, b.y from a full join b on a.bid = b.id;
-- expect: rows
-- | a1   | b10  |
-- | a2   | b20  |
-- | a3   | NULL |
-- | a4   | NULL |
-- | NULL | b30  |

-- case: full outer join keyword
select count(*) from a full outer join b on a.bid = b.id;
-- expect: rows
-- | 5 |

-- case: cross join multiplies
select count(*) from a cross join b;
-- expect: rows
-- | 12 |

-- case: three-way inner join
select a.x, b.y, c.z from a join b on a.bid = b.id join c on c.aid = a.id;
-- expect: rows
-- | a1 | b10 | 5 |
-- | a1 | b10 | 6 |
-- | a2 | b20 | 7 |

-- case: three-way with left joins
select a.id, b.id, c.id from a left join b on a.bid = b.id left join c on c.aid = a.id order by a.id, c.id;
-- expect: rows (ordered)
-- | 1 | 10   | 100  |
-- | 1 | 10   | 101  |
-- | 2 | 20   | 102  |
-- | 3 | NULL | NULL |
-- | 4 | NULL | NULL |

-- case: join condition with null never matches
select count(*) from a join c on a.id = c.aid;
-- expect: rows
-- | 3 |

-- case: self join with aliases
select p.id, q.id from a p join a q on p.id + 1 = q.id;
-- expect: rows
-- | 1 | 2 |
-- | 2 | 3 |
-- | 3 | 4 |

-- case: join using
create table d (id integer primary key, w text);
insert into d values (1, 'd1'), (3, 'd3');
select id, x, w from a join d using (id);
-- expect: rows
-- | 1 | a1 | d1 |
-- | 3 | a3 | d3 |

-- case: natural join
create table d (id integer primary key, w text);
insert into d values (2, 'd2');
select id, w from a natural join d;
-- expect: rows
-- | 2 | d2 |

-- case: ambiguous column fails
select id from a join b on a.bid = b.id;
-- expect: error ambiguous column name: id

-- case: star over a join
select * from a join b on a.bid = b.id where a.id = 1;
-- expect: rows
-- | 1 | a1 | 10 | 10 | b10 |

-- case: qualified star over a join
select b.* from a join b on a.bid = b.id where a.id = 2;
-- expect: rows
-- | 20 | b20 |

-- case: left join with filter in on clause
select a.id, b.y from a left join b on a.bid = b.id and b.y = 'b20' order by a.id;
-- expect: rows (ordered)
-- | 1 | NULL |
-- | 2 | b20  |
-- | 3 | NULL |
-- | 4 | NULL |

-- case: left join with filter in where clause
select a.id, b.y from a left join b on a.bid = b.id where b.y = 'b20';
-- expect: rows
-- | 2 | b20 |

-- case: join with non-equality condition
select a.id, c.id from a join c on c.z > a.id * 3 order by a.id, c.id;
-- expect: rows (ordered)
-- | 1 | 100 |
-- | 1 | 101 |
-- | 1 | 102 |
-- | 1 | 103 |
-- | 2 | 102 |
-- | 2 | 103 |

-- case: join order by across tables
select a.x, c.z from a join c on c.aid = a.id order by c.z desc limit 2;
-- expect: rows (ordered)
-- | a2 | 7 |
-- | a1 | 6 |

-- case: lateral generate series
select a.id, s.value from a cross join lateral generate_series(1, a.id) s where a.id <= 2;
-- derive-only: SQLite has no lateral keyword
-- expect: rows
-- | 1 | 1 |
-- | 2 | 1 |
-- | 2 | 2 |

-- case: generate series alone
-- derive-only: generate_series is an extension in SQLite builds
select value from generate_series(1, 5, 2);
-- expect: rows
-- | 1 |
-- | 3 |
-- | 5 |

-- case: join of many tables
create table t1 (k integer primary key);
create table t2 (k integer primary key);
create table t3 (k integer primary key);
create table t4 (k integer primary key);
create table t5 (k integer primary key);
insert into t1 values (1), (2);
insert into t2 values (1), (2);
insert into t3 values (2);
insert into t4 values (2), (3);
insert into t5 values (2);
select t1.k from t1 join t2 on t1.k = t2.k join t3 on t2.k = t3.k join t4 on t3.k = t4.k join t5 on t4.k = t5.k;
-- expect: rows
-- | 2 |

-- case: two join keys equating the same right column must both hold
select a.id, b.id from a join b on a.bid = b.id where b.id = coalesce(20, a.id);
-- expect: rows
-- | 2 | 20 |

