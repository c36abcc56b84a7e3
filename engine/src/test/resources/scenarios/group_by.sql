-- Aggregates, group by and having.
create table s (id integer primary key, g text, n integer, r real);
insert into s values (1, 'a', 1, 1.5), (2, 'a', 2, null), (3, 'b', null, 2.5), (4, 'b', 4, 0.5), (5, null, 5, 1.0), (6, 'a', 2, 3.0);

-- case: count star and count column
select count(*), count(n), count(g), count(r) from s;
-- expect: rows
-- | 6 | 5 | 5 | 5 |

-- case: sum avg min max
select sum(n), avg(n), min(n), max(n) from s;
-- expect: rows
-- | 14 | 2.8 | 1 | 5 |

-- case: total is real and zero on empty
select total(n), typeof(total(n)) from s;
-- expect: rows
-- | 14.0 | real |

-- case: sum of no rows is null and total is zero
select sum(n), total(n), count(*), max(n) from s where id > 100;
-- expect: rows
-- | NULL | 0.0 | 0 | NULL |

-- case: group by with count
select g, count(*) from s group by g;
-- expect: rows
-- | NULL | 1 |
-- | a    | 3 |
-- | b    | 2 |

-- case: group by with sum ignoring nulls
select g, sum(n), avg(r) from s group by g;
-- expect: rows
-- | NULL | 5 | 1.0  |
-- | a    | 5 | 2.25 |
-- | b    | 4 | 1.5  |

-- case: having filters groups
select g, count(*) as c from s group by g having count(*) > 1;
-- expect: rows
-- | a | 3 |
-- | b | 2 |

-- case: having on a sum
select g from s group by g having sum(n) >= 5;
-- expect: rows
-- | NULL |
-- | a    |

-- case: group by expression
select n % 2, count(*) from s where n is not null group by n % 2;
-- expect: rows
-- | 0 | 3 |
-- | 1 | 2 |

-- case: group by order by aggregate
select g, sum(n) as t from s group by g order by t desc, g;
-- expect: rows (ordered)
-- | NULL | 5 |
-- | a    | 5 |
-- | b    | 4 |

-- case: count distinct
select count(distinct n), count(distinct g) from s;
-- expect: rows
-- | 4 | 2 |

-- case: sum distinct
select sum(distinct n) from s;
-- expect: rows
-- | 12 |

-- case: group concat
select g, group_concat(id) from (select * from s order by id) group by g;
-- expect: rows
-- | NULL | 5     |
-- | a    | 1,2,6 |
-- | b    | 3,4   |

-- case: group concat with separator
select group_concat(g, '-') from (select g from s where g is not null order by id);
-- expect: rows
-- | a-a-b-b-a |

-- case: min and max of text
select min(g), max(g) from s;
-- expect: rows
-- | a | b |

-- case: avg of integers is real
select avg(n), typeof(avg(n)) from s where n in (1, 2);
-- expect: rows
-- | 1.6666666666666667 | real |

-- case: aggregate in expression
select max(n) - min(n), count(*) * 10 from s;
-- expect: rows
-- | 4 | 60 |

-- case: group by two columns
select g, n, count(*) from s group by g, n;
-- expect: rows
-- | NULL | 5    | 1 |
-- | a    | 1    | 1 |
-- | a    | 2    | 2 |
-- | b    | NULL | 1 |
-- | b    | 4    | 1 |

-- case: group by with where
select g, count(*) from s where n > 1 group by g;
-- expect: rows
-- | NULL | 1 |
-- | a    | 2 |
-- | b    | 1 |

-- case: having without group by
select count(*) from s having count(*) > 100;
-- expect: rows

-- case: aggregate in where fails
select id from s where count(*) > 1;
-- expect: error misuse of aggregate

-- case: sum of text uses numeric prefix
select sum(v) from (select '3' as v union all select '4x' union all select 'x');
-- expect: rows
-- | 7.0 |

-- case: sum of reals
select sum(r) from s;
-- expect: rows
-- | 8.5 |

-- case: group by column position
select g, count(*) from s group by 1 order by 1;
-- expect: rows (ordered)
-- | NULL | 1 |
-- | a    | 3 |
-- | b    | 2 |

-- case: distinct over aggregate groups
select distinct count(*) from s group by g;
-- expect: rows
-- | 1 |
-- | 3 |
-- | 2 |

-- case: sum of text values is numeric, as in SQLite
create table st (k integer primary key, g text, s text);
insert into st values (1, 'a', '1'), (2, 'a', ' 2 '), (3, 'b', 'x'), (4, 'b', '1.5'), (5, 'c', null), (6, 'd', '+7');
select g, sum(s), typeof(sum(s)) from st group by g;
-- expect: rows
-- | a | 3    | integer |
-- | b | 1.5  | real    |
-- | c | NULL | null    |
-- | d | 7    | integer |
select sum(s), typeof(sum(s)) from st;
-- expect: rows
-- | 11.5 | real |
