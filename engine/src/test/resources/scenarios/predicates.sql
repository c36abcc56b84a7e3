-- like, glob, between, in, case, coalesce-family.

-- case: like is case-insensitive for ascii
select 'abc' like 'ABC', 'abc' like 'a%', 'abc' like '_b_', 'abc' like 'b%';
-- expect: rows
-- | 1 | 1 | 1 | 0 |

-- case: like with percent in the middle
select 'hello world' like 'h%d', 'hello' like '%ll%', 'hello' like '%x%';
-- expect: rows
-- | 1 | 1 | 0 |

-- case: like with null
select null like 'a', 'a' like null;
-- expect: rows
-- | NULL | NULL |

-- case: not like
select 'abc' not like 'a%', 'abc' not like 'x%';
-- expect: rows
-- | 0 | 1 |

-- case: like with escape
select 'a%c' like 'a\%c' escape '\', 'abc' like 'a\%c' escape '\';
-- expect: rows
-- | 1 | 0 |

-- case: glob is case-sensitive
select 'abc' glob 'a*', 'abc' glob 'A*', 'abc' glob 'a?c', 'abc' glob '*c';
-- expect: rows
-- | 1 | 0 | 1 | 1 |

-- case: glob character classes
select 'b' glob '[abc]', 'd' glob '[abc]', 'x5' glob 'x[0-9]', 'd' glob '[^abc]';
-- expect: rows
-- | 1 | 0 | 1 | 1 |

-- case: glob class with a bracket first, a negation and a dash at either end
select ']' glob '[]]', 'a' glob '[^]a]', 'b' glob '[^]a]', '-' glob '[a-]', 'b' glob '[a-]', '-' glob '[-z]';
-- expect: rows
-- | 1 | 0 | 1 | 1 | 0 | 1 |

-- case: like with the escape as its last character matches nothing
select 'ab' like 'ab\' escape '\', 'ab\' like 'ab\' escape '\';
-- expect: rows
-- | 0 | 0 |

-- case: like underscore matches one character beyond the basic plane
select '😀' like '_', '😀' glob '?', '😀x' like '_x';
-- expect: rows
-- | 1 | 1 | 1 |

-- case: not glob
select 'abc' not glob 'a*';
-- expect: rows
-- | 0 |

-- case: like on a column
create table t (k integer primary key, v text);
insert into t values (1, 'Apple'), (2, 'banana'), (3, 'APRICOT'), (4, null);
select k from t where v like 'ap%';
-- expect: rows
-- | 1 |
-- | 3 |

-- case: glob on a column
create table t (k integer primary key, v text);
insert into t values (1, 'Apple'), (2, 'banana'), (3, 'APRICOT');
select k from t where v glob '*an*';
-- expect: rows
-- | 2 |

-- case: between is inclusive
select 5 between 1 and 5, 1 between 1 and 5, 0 between 1 and 5, 3 not between 1 and 5;
-- expect: rows
-- | 1 | 1 | 0 | 0 |

-- case: between with null bound
select 3 between null and 5, 9 between null and 5, null between 1 and 2;
-- expect: rows
-- | NULL | 0 | NULL |

-- case: between on text
select 'b' between 'a' and 'c', 'd' between 'a' and 'c';
-- expect: rows
-- | 1 | 0 |

-- case: in list
select 2 in (1, 2, 3), 4 in (1, 2, 3), 4 not in (1, 2, 3);
-- expect: rows
-- | 1 | 0 | 1 |

-- case: in list with null
select 1 in (1, null), 2 in (1, null), 2 not in (1, null), null in (1);
-- expect: rows
-- | 1 | NULL | NULL | NULL |

-- case: in empty list
select 1 in (), null in (), 1 not in ();
-- expect: rows
-- | 0 | 0 | 1 |

-- case: in list of text
select 'b' in ('a', 'b'), 'B' in ('a', 'b');
-- expect: rows
-- | 1 | 0 |

-- case: in list filters a table
create table t (k integer primary key, v text);
insert into t values (1, 'a'), (2, 'b'), (3, 'c'), (4, null);
select k from t where v not in ('a', 'c');
-- expect: rows
-- | 2 |

-- case: searched case
select case when 1 > 2 then 'a' when 2 > 1 then 'b' else 'c' end;
-- expect: rows
-- | b |

-- case: simple case
select case 3 when 1 then 'one' when 3 then 'three' else 'other' end;
-- expect: rows
-- | three |

-- case: case without else yields null
select case when 0 then 1 end;
-- expect: rows
-- | NULL |

-- case: simple case does not match null
select case null when null then 'yes' else 'no' end;
-- expect: rows
-- | no |

-- case: case over columns
create table t (k integer primary key, n integer);
insert into t values (1, 5), (2, -3), (3, null), (4, 0);
select k, case when n > 0 then 'pos' when n < 0 then 'neg' when n = 0 then 'zero' else 'unknown' end from t order by k;
-- expect: rows (ordered)
-- | 1 | pos     |
-- | 2 | neg     |
-- | 3 | unknown |
-- | 4 | zero    |

-- case: coalesce returns first non-null
select coalesce(null, null, 3, 4), coalesce(null, 'x'), coalesce(null, null);
-- expect: rows
-- | 3 | x | NULL |

-- case: ifnull and nullif
select ifnull(null, 5), ifnull(2, 5), nullif(3, 3), nullif(3, 4);
-- expect: rows
-- | 5 | 2 | NULL | 3 |

-- case: in on primary key with duplicates in list
create table t (k integer primary key, v text);
insert into t values (1, 'a'), (2, 'b');
select v from t where k in (1, 1, 1);
-- expect: rows
-- | a |

-- case: between on primary key
create table t (k integer primary key, v text);
insert into t values (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
select v from t where k between 2 and 3 order by k;
-- expect: rows (ordered)
-- | b |
-- | c |

-- case: in table name
create table s (k integer primary key);
insert into s values (2);
select 2 in s, 3 in s;
-- expect: rows
-- | 1 | 0 |
