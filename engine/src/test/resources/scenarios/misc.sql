-- Odds and ends of semantics.md §1: negative zero, temp schema, pragmas, explain, numeric edges.

-- case: negative zero equals zero
select -(0.0) = 0.0, 0.0 = -0.0, -0.0 < 0.0;
-- expect: rows
-- | 1 | 1 | 0 |

-- case: a stored negative zero matches zero
create table z (k integer primary key, r real);
insert into z values (1, 0.0), (2, -0.0);
select k from z where r = 0.0;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: temp tables live in the temp schema
create temp table tt (k integer primary key, v text);
insert into tt values (1, 'x');
select v from temp.tt;
-- expect: rows
-- | x |
select v from tt;
-- expect: rows
-- | x |

-- case: main schema qualifies tables
create table m (k integer primary key);
insert into main.m values (1);
select k from main.m;
-- expect: rows
-- | 1 |

-- case: foreign keys are on by default
-- derive-only: SQLite defaults foreign_keys to off; Derive to on (semantics.md §1)
pragma foreign_keys;
-- expect: rows
-- | 1 |

-- case: default column nullability can be flipped
-- derive-only: Derive pragma
pragma default_column_nullability = 'not_null';
create table nn (k integer primary key, v text);
insert into nn values (1, null);
-- expect: error NOT NULL constraint failed: nn.v

-- case: explain shows a plan
-- derive-only: Derive's explain output
create table e (k integer primary key, v text);
explain select * from e where k = 1;

-- case: cast of out-of-range text saturates
select cast('9223372036854775808' as integer), cast(1e20 as integer);
-- expect: rows
-- | 9223372036854775807 | 9223372036854775807 |

-- case: text and integer literals never compare equal
select 1 = '1', '1' = 1;
-- expect: rows
-- | 0 | 0 |

-- case: remainder truncates real operands to integers
select 5 % 2.5, -5 % 3;
-- expect: rows
-- | 1.0 | -2 |

-- case: round half away from zero
select round(2.5), round(-0.5), round(2.675, 2);
-- expect: rows
-- | 3.0 | -1.0 | 2.67 |

-- case: substr past the end is empty
select substr('abc', 2, 100), substr('abc', 5);
-- expect: rows
-- | bc | '' |

-- case: coalesce needs two arguments
select coalesce(null);
-- expect: error wrong number of arguments to function coalesce()

-- case: aggregates over no rows
create table w (k integer primary key, r real);
select min(k), max(k), sum(r), total(r), avg(r), count(*) from w;
-- expect: rows
-- | NULL | NULL | NULL | 0.0 | NULL | 0 |

-- case: generate series counts
-- derive-only: generate_series is not built into the SQLite of sqlite-jdbc
select count(*) from generate_series(1, 10, 3);
-- expect: rows
-- | 4 |
