-- union, union all, intersect, except.
create table l (id integer primary key, v integer);
create table r (id integer primary key, v integer);
insert into l values (1, 1), (2, 2), (3, 2), (4, null);
insert into r values (1, 2), (2, 3), (3, null);

-- case: union removes duplicates
select v from l union select v from r;
-- expect: rows
-- | NULL |
-- | 1    |
-- | 2    |
-- | 3    |

-- case: union all keeps duplicates
select v from l union all select v from r;
-- expect: rows
-- | 1    |
-- | 2    |
-- | 2    |
-- | NULL |
-- | 2    |
-- | 3    |
-- | NULL |

-- case: intersect
select v from l intersect select v from r;
-- expect: rows
-- | NULL |
-- | 2    |

-- case: except
select v from l except select v from r;
-- expect: rows
-- | 1 |

-- case: union with order by and limit
select v from l union select v from r order by v desc limit 2;
-- expect: rows (ordered)
-- | 3 |
-- | 2 |

-- case: chained set operations are left associative
select v from l union all select v from r except select 2;
-- expect: rows
-- | NULL |
-- | 1    |
-- | 3    |

-- case: column count mismatch fails
select id, v from l union select v from r;
-- expect: error SELECTs to the left and right of UNION do not have the same number of result columns

-- case: union takes names from the left
select v as left_v from l where id = 1 union select v from r where id = 2;
-- expect: rows
-- | 1 |
-- | 3 |
-- expect: columns left_v

-- case: union of constants
select 1 union select 2 union select 1;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: union all with values of different types
select 1 union all select 'a' union all select 2.5;
-- expect: rows
-- | 1   |
-- | a   |
-- | 2.5 |

-- case: except all rows
select v from l except select v from l;
-- expect: rows

-- case: intersect with nothing
select v from l intersect select v from r where 0;
-- expect: rows

-- case: insert from union
create table u (v integer primary key);
insert into u select v from l where v is not null union select v from r where v is not null;
select v from u;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |
