-- Collations binary, nocase and rtrim in comparisons, ordering and keys.

-- case: collate nocase on an expression
select 'abc' = 'ABC', 'abc' = 'ABC' collate nocase, 'abc' collate nocase = 'ABC';
-- expect: rows
-- | 0 | 1 | 1 |

-- case: collate rtrim ignores trailing spaces
select 'a  ' = 'a', 'a  ' = 'a' collate rtrim;
-- expect: rows
-- | 0 | 1 |

-- case: collate binary is the default
select 'a' = 'A' collate binary;
-- expect: rows
-- | 0 |

-- case: nocase column compares case-insensitively
create table t (k integer primary key, v text collate nocase);
insert into t values (1, 'Apple'), (2, 'apple'), (3, 'Banana');
select k from t where v = 'APPLE';
-- expect: rows
-- | 1 |
-- | 2 |

-- case: nocase column orders case-insensitively
create table t (k integer primary key, v text collate nocase);
insert into t values (1, 'b'), (2, 'A'), (3, 'C'), (4, 'a');
select v from t order by v, k;
-- expect: rows (ordered)
-- | A |
-- | a |
-- | b |
-- | C |

-- case: binary column orders upper case first
create table t (k integer primary key, v text);
insert into t values (1, 'b'), (2, 'A'), (3, 'C'), (4, 'a');
select v from t order by v;
-- expect: rows (ordered)
-- | A |
-- | C |
-- | a |
-- | b |

-- case: order by with explicit collate
create table t (k integer primary key, v text);
insert into t values (1, 'b'), (2, 'A'), (3, 'C');
select v from t order by v collate nocase;
-- expect: rows (ordered)
-- | A |
-- | b |
-- | C |

-- case: nocase primary key rejects case variants
create table t (k text collate nocase primary key);
insert into t values ('abc');
insert into t values ('ABC');
-- expect: error UNIQUE constraint failed: t.k

-- case: nocase primary key lookup
create table t (k text collate nocase primary key, v integer);
insert into t values ('Key', 1);
select v from t where k = 'KEY';
-- expect: rows
-- | 1 |

-- case: distinct on nocase column
create table t (k integer primary key, v text collate nocase);
insert into t values (1, 'x'), (2, 'X'), (3, 'y');
select count(*) from (select distinct v from t);
-- expect: rows
-- | 2 |

-- case: rtrim column equality
create table t (k integer primary key, v text collate rtrim);
insert into t values (1, 'a '), (2, 'a'), (3, 'b');
select k from t where v = 'a';
-- expect: rows
-- | 1 |
-- | 2 |

-- case: collate overrides column collation
create table t (k integer primary key, v text collate nocase);
insert into t values (1, 'a'), (2, 'A');
select k from t where v = 'a' collate binary;
-- expect: rows
-- | 1 |

-- case: unknown collation fails
select 'a' = 'b' collate klingon;
-- expect: error no such collation sequence: klingon

-- case: like ignores column collation for ascii case
create table t (k integer primary key, v text);
insert into t values (1, 'ABC');
select k from t where v like 'abc';
-- expect: rows
-- | 1 |

-- case: in list uses the column collation
create table t (k integer primary key, v text collate nocase);
insert into t values (1, 'Red'), (2, 'blue');
select k from t where v in ('RED', 'BLUE') order by k;
-- expect: rows (ordered)
-- | 1 |
-- | 2 |

-- case: a collated or cast column keeps its affinity in a comparison with a literal
create table aff (c text, n integer);
insert into aff values ('5', 5), ('10', 10), ('abc', 7);
select n from aff where 5 = c collate nocase;
-- expect: rows
-- | 5 |
select n from aff where '10' = cast(c as integer);
-- expect: rows
-- | 10 |
