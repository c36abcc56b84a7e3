-- Single-table select: where, order by, limit/offset, distinct, aliases, star.
create table t (k integer primary key, v text, n integer, r real);
insert into t values (1, 'b', 2, 1.5), (2, null, 1, null), (3, 'a', null, 2.0), (4, 'b', 2, -0.5), (5, 'c', 3, 10.25);

-- case: select star returns every row
select * from t;
-- expect: rows
-- | 1 | b    | 2    | 1.5   |
-- | 2 | NULL | 1    | NULL  |
-- | 3 | a    | NULL | 2.0   |
-- | 4 | b    | 2    | -0.5  |
-- | 5 | c    | 3    | 10.25 |

-- case: where with and or
select k from t where n = 2 or v = 'a';
-- expect: rows
-- | 1 |
-- | 3 |
-- | 4 |

-- case: where excludes null comparisons
select k from t where n <> 2;
-- expect: rows
-- | 2 |
-- | 5 |

-- case: order by text nulls first ascending
select k from t order by v, k;
-- expect: rows (ordered)
-- | 2 |
-- | 3 |
-- | 1 |
-- | 4 |
-- | 5 |

-- case: order by descending puts nulls last
select k from t order by n desc, k;
-- expect: rows (ordered)
-- | 5 |
-- | 1 |
-- | 4 |
-- | 2 |
-- | 3 |

-- case: order by nulls last ascending
select k from t order by n nulls last, k;
-- expect: rows (ordered)
-- | 2 |
-- | 1 |
-- | 4 |
-- | 5 |
-- | 3 |

-- case: order by nulls first descending
select k from t order by r desc nulls first;
-- expect: rows (ordered)
-- | 2 |
-- | 5 |
-- | 3 |
-- | 1 |
-- | 4 |

-- case: order by expression
select k from t order by n * -1, k desc;
-- expect: rows (ordered)
-- | 3 |
-- | 5 |
-- | 4 |
-- | 1 |
-- | 2 |

-- case: order by column position
select v, k from t order by 2 desc;
-- expect: rows (ordered)
-- | c    | 5 |
-- | b    | 4 |
-- | a    | 3 |
-- | NULL | 2 |
-- | b    | 1 |

-- case: order by alias
select k * 10 as kk from t order by kk desc limit 2;
-- expect: rows (ordered)
-- | 50 |
-- | 40 |

-- case: order by a column not selected
select v from t where v is not null order by r;
-- expect: rows (ordered)
-- | b |
-- | b |
-- | a |
-- | c |

-- case: limit
select k from t order by k limit 2;
-- expect: rows (ordered)
-- | 1 |
-- | 2 |

-- case: limit with offset
select k from t order by k limit 2 offset 3;
-- expect: rows (ordered)
-- | 4 |
-- | 5 |

-- case: offset past the end
select k from t order by k limit 10 offset 10;
-- expect: rows

-- case: limit zero
select k from t limit 0;
-- expect: rows

-- case: negative limit means no limit
select k from t order by k limit -1 offset 3;
-- expect: rows (ordered)
-- | 4 |
-- | 5 |

-- case: limit comma form
select k from t order by k limit 1, 2;
-- expect: rows (ordered)
-- | 2 |
-- | 3 |

-- case: limit expression
select k from t order by k limit 1 + 1;
-- expect: rows (ordered)
-- | 1 |
-- | 2 |

-- case: limit of text that is no number is a datatype mismatch
select k from t order by k limit 'x';
-- expect: error datatype mismatch at 1:34

-- case: limit of a real with a fraction is a datatype mismatch
select k from t order by k limit 1.5;
-- expect: error datatype mismatch at 1:34

-- case: limit null is a datatype mismatch
select k from t order by k limit null;
-- expect: error datatype mismatch at 1:34

-- case: offset of text that is no number is a datatype mismatch
select k from t order by k limit 2 offset 'x';
-- expect: error datatype mismatch at 1:43

-- case: distinct removes duplicates
select distinct v from t;
-- expect: rows
-- | b    |
-- | NULL |
-- | a    |
-- | c    |

-- case: distinct over two columns
select distinct v, n from t where k <> 5;
-- expect: rows
-- | b    | 2    |
-- | NULL | 1    |
-- | a    | NULL |

-- case: distinct treats nulls as equal
select distinct n is null, v is null from t;
-- expect: rows
-- | 0 | 0 |
-- | 0 | 1 |
-- | 1 | 0 |

-- case: distinct with order by and limit
select distinct n from t order by n desc limit 2;
-- expect: rows (ordered)
-- | 3 |
-- | 2 |

-- case: select all keyword
select all v from t where v = 'b';
-- expect: rows
-- | b |
-- | b |

-- case: column alias names the output
select k as id, v name from t where k = 1;
-- expect: rows
-- | 1 | b |
-- expect: columns id, name

-- case: table alias qualifies columns
select x.k from t as x where x.v = 'a';
-- expect: rows
-- | 3 |

-- case: table name qualifies columns
select t.k, t.v from t where t.k = 5;
-- expect: rows
-- | 5 | c |

-- case: qualified star
select t.* from t where k = 3;
-- expect: rows
-- | 3 | a | NULL | 2.0 |

-- case: select without from
select 1, 'two', 3.5, null;
-- expect: rows
-- | 1 | two | 3.5 | NULL |

-- case: where on real column
select k from t where r between 0 and 2;
-- expect: rows
-- | 1 |
-- | 3 |

-- case: where with parameterless constant true
select count(*) from t where 1;
-- expect: rows
-- | 5 |

-- case: where constant false returns nothing
select k from t where 0;
-- expect: rows

-- case: where integer column alone is truthy
select k from t where n;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 4 |
-- | 5 |

-- case: unknown column fails
select nope from t;
-- expect: error no such column: nope

-- case: unknown table fails
select * from nope;
-- expect: error no such table: nope

-- case: unknown qualifier fails
select z.k from t;
-- expect: error no such column: z.k

-- case: where compares text with text ordering
select k from t where v > 'a' order by k;
-- expect: rows (ordered)
-- | 1 |
-- | 4 |
-- | 5 |

-- case: order by two keys mixed directions
select k from t order by v desc, k desc;
-- expect: rows (ordered)
-- | 5 |
-- | 4 |
-- | 1 |
-- | 3 |
-- | 2 |

-- case: primary key equality
select v from t where k = 4;
-- expect: rows
-- | b |

-- case: primary key range
select k from t where k > 2 and k <= 4 order by k;
-- expect: rows (ordered)
-- | 3 |
-- | 4 |

-- case: primary key in list
select k from t where k in (5, 1, 9) order by k;
-- expect: rows (ordered)
-- | 1 |
-- | 5 |

-- case: primary key compared with text literal
select v from t where k = '5';
-- expect: rows
-- | c |
