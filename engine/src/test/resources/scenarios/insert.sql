-- Insert: values lists, column lists, insert … select, counts, errors.

-- case: multi-row insert counts rows
create table t (k integer primary key, v text);
insert into t values (1, 'a'), (2, 'b'), (3, 'c');
-- expect: count 3

-- case: insert with column list in another order
create table t (k integer primary key, a text, b integer);
insert into t (b, k, a) values (5, 1, 'x');
select k, a, b from t;
-- expect: rows
-- | 1 | x | 5 |

-- case: omitted columns are null
create table t (k integer primary key, a text, b integer);
insert into t (k) values (1);
select a, b from t;
-- expect: rows
-- | NULL | NULL |

-- case: insert select copies rows
create table s (k integer primary key, v text);
create table t (k integer primary key, v text);
insert into s values (1, 'a'), (2, 'b');
insert into t select k, v from s where k > 1;
-- expect: count 1
select * from t;
-- expect: rows
-- | 2 | b |

-- case: insert select with expression
create table s (k integer primary key, n integer);
create table t (k integer primary key, n integer);
insert into s values (1, 10), (2, 20);
insert into t select k + 100, n * 2 from s;
select * from t;
-- expect: rows
-- | 101 | 20 |
-- | 102 | 40 |

-- case: too many values fails
create table t (k integer primary key, v text);
insert into t values (1, 'a', 'extra');
-- expect: error 3 values for 2 columns

-- case: too few values fails
create table t (k integer primary key, v text);
insert into t values (1);
-- expect: error 1 values for 2 columns

-- case: unknown column in column list fails
create table t (k integer primary key, v text);
insert into t (k, nope) values (1, 'a');
-- expect: error table t has no column named nope

-- case: insert into unknown table fails
insert into nope values (1);
-- expect: error no such table: nope

-- case: duplicate primary key fails and keeps the first row
create table t (k integer primary key, v text);
insert into t values (1, 'a');
insert into t values (1, 'b');
-- expect: error UNIQUE constraint failed: t.k
select v from t;
-- expect: rows
-- | a |

-- case: duplicate within one statement fails wholly
create table t (k integer primary key, v text);
insert into t values (1, 'a'), (2, 'b'), (1, 'c');
-- expect: error UNIQUE constraint failed: t.k
select count(*) from t;
-- expect: rows
-- | 0 |

-- case: duplicate within one statement leaves table empty
create table t (k integer primary key, v text);
insert into t values (1, 'a'), (2, 'b'), (1, 'c');
-- expect: error UNIQUE constraint failed: t.k
select * from t;
-- expect: rows

-- case: text key collision is exact by default
create table t (k text primary key);
insert into t values ('a'), ('A');
select k from t order by k;
-- expect: rows (ordered)
-- | A |
-- | a |

-- case: insert expressions are evaluated
create table t (k integer primary key, v text, n integer);
insert into t values (1 + 1, 'a' || 'b', 10 / 3);
select * from t;
-- expect: rows
-- | 2 | ab | 3 |

-- case: insert negative and large integers
create table t (k integer primary key, n integer);
insert into t values (1, -9223372036854775808), (2, 9223372036854775807);
select n from t order by k;
-- expect: rows (ordered)
-- | -9223372036854775808 |
-- | 9223372036854775807 |

-- case: insert empty string is not null
create table t (k integer primary key, v text);
insert into t values (1, '');
select v, v is null, length(v) from t;
-- expect: rows
-- | '' | 0 | 0 |

-- case: insert string with quotes
create table t (k integer primary key, v text);
insert into t values (1, 'it''s');
select v from t;
-- expect: rows
-- | it's |

-- case: insert unicode text
create table t (k integer primary key, v text);
insert into t values (1, 'héllo wörld ✓');
select v, length(v) from t;
-- expect: rows
-- | héllo wörld ✓ | 13 |

-- case: insert blob literal
create table t (k integer primary key, b blob);
insert into t values (1, x'00ff10');
select b, length(b) from t;
-- expect: rows
-- | x'00ff10' | 3 |

-- case: insert default values statement
create table t (k integer primary key, v text default 'd');
insert into t default values;
select v from t;
-- expect: rows
-- | d |

-- case: insert returning
create table t (k integer primary key, v text);
insert into t values (1, 'a'), (2, 'b') returning k, v;
-- expect: rows
-- | 1 | a |
-- | 2 | b |
