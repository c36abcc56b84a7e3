-- cast and coercion to declared column types.

-- case: cast text to integer takes the numeric prefix
select cast('12abc' as integer), cast('abc' as integer), cast(' 42 ' as integer), cast('-7' as integer);
-- expect: rows
-- | 12 | 0 | 42 | -7 |

-- case: cast real to integer truncates
select cast(3.7 as integer), cast(-3.7 as integer), cast(0.2 as int);
-- expect: rows
-- | 3 | -3 | 0 |

-- case: cast to real
select cast(3 as real), cast('2.5x' as real), cast('x' as real);
-- expect: rows
-- | 3.0 | 2.5 | 0.0 |

-- case: cast to text
select cast(12 as text), cast(1.5 as text), typeof(cast(12 as text));
-- expect: rows
-- | 12 | 1.5 | text |

-- case: cast null stays null
select cast(null as integer), cast(null as text);
-- expect: rows
-- | NULL | NULL |

-- case: typeof reports storage classes
select typeof(1), typeof(1.5), typeof('a'), typeof(null), typeof(x'00');
-- expect: rows
-- | integer | real | text | null | blob |

-- case: text into integer column is converted
create table t (k integer primary key, n integer);
insert into t values (1, '42');
select n, typeof(n) from t;
-- expect: rows
-- | 42 | integer |

-- case: integer into text column becomes text
create table t (k integer primary key, s text);
insert into t values (1, 42);
select s, typeof(s) from t;
-- expect: rows
-- | 42 | text |

-- case: integer into real column becomes real
create table t (k integer primary key, r real);
insert into t values (1, 3);
select r, typeof(r) from t;
-- expect: rows
-- | 3.0 | real |

-- case: real text into real column
create table t (k integer primary key, r real);
insert into t values (1, '2.25');
select r, typeof(r) from t;
-- expect: rows
-- | 2.25 | real |

-- case: integral real into integer column becomes integer
create table t (k integer primary key, n integer);
insert into t values (1, 5.0);
select n, typeof(n) from t;
-- expect: rows
-- | 5 | integer |

-- case: uncoercible text into integer column fails naming the column
-- derive-only: SQLite stores the text; Derive coerces strictly (semantics.md §1)
create table t (k integer primary key, n integer);
insert into t values (1, 'many');
-- expect: error column t.n of type integer

-- case: fractional real into integer column fails
-- derive-only: SQLite stores the real; Derive coerces strictly (semantics.md §1)
create table t (k integer primary key, n integer);
insert into t values (1, 2.5);
-- expect: error column t.n

-- case: text key is found by integer literal after coercion
create table t (k integer primary key, v text);
insert into t values ('7', 'seven');
select v from t where k = 7;
-- expect: rows
-- | seven |

-- case: integer column compared with text literal
create table t (k integer primary key, n integer);
insert into t values (1, 10), (2, 9);
select k from t where n > '9';
-- expect: rows
-- | 1 |

-- case: text column compared with integer literal
create table t (k integer primary key, s text);
insert into t values (1, '10'), (2, '9');
select k from t where s = 10;
-- expect: rows
-- | 1 |

-- case: cast in where
create table t (k integer primary key, s text);
insert into t values (1, '10'), (2, '9'), (3, 'x');
select k from t where cast(s as integer) > 5 order by k;
-- expect: rows (ordered)
-- | 1 |
-- | 2 |

-- case: order by mixed types puts numbers before text
select v from (select 1 as v) order by v;
-- expect: rows
-- | 1 |

-- case: update coerces text to real
create table t (k integer primary key, r real);
insert into t values (1, 1);
update t set r = '4';
select r from t;
-- expect: rows
-- | 4.0 |

-- case: parameter-free numeric text stays text in a text column
create table t (k integer primary key, s text);
insert into t values (1, '007');
select s, length(s) from t;
-- expect: rows
-- | 007 | 3 |

-- case: cast blob to text
select cast(x'616263' as text);
-- expect: rows
-- | abc |

-- case: cast text to blob
select cast('abc' as blob);
-- expect: rows
-- | x'616263' |

-- case: cast to numeric
select cast('1.50' as numeric);
-- expect: rows
-- | 1.5 |
