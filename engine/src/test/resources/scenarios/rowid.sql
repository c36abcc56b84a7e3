-- Tables without a primary key are bags with a selectable rowid.

-- case: rowid is selectable
create table t (a text);
insert into t values ('x'), ('y');
select rowid, a from t order by rowid;
-- expect: rows (ordered)
-- | 1 | x |
-- | 2 | y |

-- case: duplicates are kept
create table t (a integer, b integer);
insert into t values (1, 1), (1, 1);
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: delete one of two duplicates by rowid
create table t (a integer);
insert into t values (5), (5);
delete from t where rowid = 1;
select rowid, a from t;
-- expect: rows
-- | 2 | 5 |

-- case: update by rowid
create table t (a integer);
insert into t values (1), (2);
update t set a = 10 where rowid = 2;
select a from t order by rowid;
-- expect: rows (ordered)
-- | 1  |
-- | 10 |

-- case: rowid is not part of star
create table t (a integer);
insert into t values (7);
select * from t;
-- expect: rows
-- | 7 |
-- expect: columns a

-- case: integer primary key is the rowid
create table t (k integer primary key, v text);
insert into t values (42, 'x');
select rowid, k from t;
-- expect: rows
-- | 42 | 42 |

-- case: rowid continues after the largest
create table t (a text);
insert into t values ('x'), ('y'), ('z');
delete from t where a = 'z';
insert into t values ('w');
select rowid from t where a = 'w';
-- expect: rows
-- | 3 |

-- case: bag delete removes all equal rows
create table t (a integer);
insert into t values (1), (1), (2);
delete from t where a = 1;
-- expect: count 2
