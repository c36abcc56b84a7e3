-- Scalar functions of semantics.md §1.

-- case: abs
select abs(-3), abs(3), abs(-2.5), abs(null);
-- expect: rows
-- | 3 | 3 | 2.5 | NULL |

-- case: length of text and numbers
select length('abc'), length(''), length(12345), length(null);
-- expect: rows
-- | 3 | 0 | 5 | NULL |

-- case: upper and lower
select upper('aBc'), lower('aBc'), upper(null);
-- expect: rows
-- | ABC | abc | NULL |

-- case: substr with start and length
select substr('hello', 2, 3), substr('hello', 2), substr('hello', -3), substr('hello', 0, 2);
-- expect: rows
-- | ell | ello | llo | h |

-- case: trim family
select trim('  a  '), ltrim('  a  '), rtrim('  a  '), trim('xxaxx', 'x');
-- expect: rows
-- | a | 'a  ' | '  a' | a |

-- case: replace
select replace('banana', 'an', 'AN'), replace('abc', 'x', 'y'), replace('aaa', 'a', '');
-- expect: rows
-- | bANANa | abc | '' |

-- case: instr
select instr('hello', 'l'), instr('hello', 'z'), instr('hello', '');
-- expect: rows
-- | 3 | 0 | 1 |

-- case: round
select round(2.5), round(-2.5), round(3.14159, 2), round(7);
-- expect: rows
-- | 3.0 | -3.0 | 3.14 | 7.0 |

-- case: typeof of function results
select typeof(length('a')), typeof(upper('a')), typeof(abs(-1.5));
-- expect: rows
-- | integer | text | real |

-- case: scalar max and min
select max(1, 5, 3), min(4, 2, 8), max('a', 'b'), max(1, null);
-- expect: rows
-- | 5 | 2 | b | NULL |

-- case: printf
select printf('%d-%s', 5, 'x'), printf('%.2f', 3.14159), printf('%5d|', 42);
-- expect: rows
-- | 5-x | 3.14 | '   42|' |

-- case: coalesce over columns
create table t (k integer primary key, a text, b text);
insert into t values (1, null, 'b'), (2, 'a', 'b'), (3, null, null);
select k, coalesce(a, b, 'none') from t order by k;
-- expect: rows (ordered)
-- | 1 | b    |
-- | 2 | a    |
-- | 3 | none |

-- case: functions are case-insensitive by name
select UPPER('x'), Length('ab');
-- expect: rows
-- | X | 2 |

-- case: wrong argument count fails
select length('a', 'b');
-- expect: error length

-- case: hex and quote
select hex('abc'), quote('it''s'), quote(5), quote(null);
-- expect: rows
-- | 616263 | '''it''''s''' | 5 | 'NULL' |

-- case: char and unicode
select char(72, 105), unicode('A');
-- expect: rows
-- | Hi | 65 |

-- case: sign
select sign(-5), sign(0), sign(3.5);
-- expect: rows
-- | -1 | 0 | 1 |

-- case: iif
select iif(1 > 2, 'yes', 'no'), iif(null, 1, 2);
-- expect: rows
-- | no | 2 |

-- case: random is an integer
select typeof(random());
-- expect: rows
-- | integer |

-- case: randomblob length
select length(randomblob(8)), typeof(randomblob(8));
-- expect: rows
-- | 8 | blob |

-- case: zeroblob
select length(zeroblob(4)), hex(zeroblob(2));
-- expect: rows
-- | 4 | 0000 |

-- case: date of a literal
select date('2024-03-15'), date('2024-03-15 10:20:30');
-- expect: rows
-- | 2024-03-15 | 2024-03-15 |

-- case: date with modifiers
select date('2024-01-31', '+1 month'), date('2024-03-01', '-1 day'), date('2024-02-28', '+1 day');
-- expect: rows
-- | 2024-03-02 | 2024-02-29 | 2024-02-29 |

-- case: time and datetime
select time('2024-03-15 10:20:30'), datetime('2024-03-15 10:20:30', '+90 minutes');
-- expect: rows
-- | 10:20:30 | 2024-03-15 11:50:30 |

-- case: strftime
select strftime('%Y/%m/%d', '2024-03-15'), strftime('%H:%M', '2024-03-15 07:08:09');
-- expect: rows
-- | 2024/03/15 | 07:08 |

-- case: julianday
select julianday('2000-01-01 12:00:00');
-- expect: rows
-- | 2451545.0 |

-- case: date of invalid text is null
select date('not a date');
-- expect: rows
-- | NULL |

-- case: start of month modifier
select date('2024-03-15', 'start of month'), date('2024-03-15', 'start of year');
-- expect: rows
-- | 2024-03-01 | 2024-01-01 |

-- case: unixepoch conversion
select datetime(0, 'unixepoch'), strftime('%s', '1970-01-02');
-- expect: rows
-- | 1970-01-01 00:00:00 | 86400 |

-- case: current date has date shape
select length(current_date), length(current_timestamp);
-- expect: rows
-- | 10 | 19 |

-- case: now is read once per statement
with recursive s(i) as (select 1 union all select i + 1 from s where i < 50000)
select count(distinct julianday('now')) from s;
-- expect: rows
-- | 1 |

-- case: every clock reading of a statement sees the same instant
with recursive s(i) as (select 1 union all select i + 1 from s where i < 50000)
select count(*) from s
where strftime('%Y-%m-%d %H:%M:%f', 'now') <> strftime('%Y-%m-%d %H:%M:%f') or julianday() <> julianday('now')
   or datetime('now') <> current_timestamp or date('now') <> current_date or time() <> current_time;
-- expect: rows
-- | 0 |

-- case: an insert writes one instant for now in every row
create table stamps (i integer primary key, at real);
insert into stamps
with recursive s(i) as (select 1 union all select i + 1 from s where i < 50000) select i, julianday('now') from s;
-- expect: count 50000
select count(distinct at) from stamps;
-- expect: rows
-- | 1 |
