-- Materialized views over materialized views: the cascade in dependency order (semantics §4) and
-- the drop refusals of §2.
create table t (k integer primary key, g text, v integer);
create table c (k integer primary key, n integer not null);
insert into t values (1, 'a', 10), (2, 'a', 20), (3, 'b', 30);
insert into c values (1, 1), (2, 2);

-- case: per-row over per-row
-- derive-only: materialized views
create materialized view m1 as select k, g, v from t where v > 5;
create materialized view m2 as select k, v * 2 as d from m1 where v < 25;
update t set v = 1 where k = 1;
insert into t values (4, 'c', 12);
select * from m2;
-- expect: rows
-- | 2 | 40 |
-- | 4 | 24 |

-- case: group over per-row
-- derive-only: materialized views
create materialized view m1 as select k, g, v from t where v > 5;
create materialized view m2 as select g, count(*) as n, sum(v) as s from m1 group by g;
select arm from materialized_views() where name = 'm2';
-- expect: rows
-- | group recompute |
update t set g = 'b' where k = 1;
select * from m2;
-- expect: rows
-- | a | 1 | 20 |
-- | b | 2 | 40 |

-- case: three levels mixing arms
-- derive-only: materialized views
create materialized view m1 as select k, g, v from t;
create materialized view m2 as select g, count(*) as n from m1 group by g;
create materialized view m3 as select count(*) as groups, sum(n) as rows from m2;
insert into t values (4, 'c', 1), (5, 'c', 2);
delete from t where k = 3;
select * from m3;
-- expect: rows
-- | 2 | 4 |

-- case: per-row over group
-- derive-only: materialized views
create materialized view m1 as select g, count(*) as n from t group by g;
create materialized view m2 as select g, n from m1 where n > 1;
insert into t values (4, 'b', 1);
select * from m2;
-- expect: rows
-- | a | 2 |
-- | b | 2 |

-- case: rebuild over rebuild
-- derive-only: materialized views
create materialized view m1 as select distinct g from t;
create materialized view m2 as select count(*) as n from m1;
insert into t values (4, 'c', 1);
select n from m2;
-- expect: rows
-- | 3 |

-- case: join of a view and a table keeps the view key
-- derive-only: materialized views
create materialized view m1 as select k, v from t;
create materialized view m2 as select m.k, m.v, c.n from m1 m join c on c.k = m.k;
insert into c values (3, 3);
select k, n from m2;
-- expect: rows
-- | 1 | 1 |
-- | 2 | 2 |
-- | 3 | 3 |

-- case: union of two views
-- derive-only: materialized views
create materialized view m1 as select k from t where v > 15;
create materialized view m2 as select k from c;
create materialized view m3 as select k from m1 union select k from m2;
delete from c where k = 1;
select k from m3;
-- expect: rows
-- | 2 |
-- | 3 |

-- case: cascade rolls back with the transaction
-- derive-only: materialized views
create materialized view m1 as select k, g from t;
create materialized view m2 as select g, count(*) as n from m1 group by g;
begin;
insert into t values (4, 'b', 1);
select n from m2 where g = 'b';
-- expect: rows
-- | 2 |
rollback;
select n from m2 where g = 'b';
-- expect: rows
-- | 1 |

-- case: cascade rolls back to a savepoint
-- derive-only: materialized views
create materialized view m1 as select k, g from t;
create materialized view m2 as select distinct g from m1;
begin;
savepoint s;
insert into t values (4, 'z', 1);
rollback to s;
commit;
select g from m2;
-- expect: rows
-- | a |
-- | b |

-- case: refresh of a producer reaches its consumer
-- derive-only: materialized views
create materialized view m1 as select k, g from t;
create materialized view m2 as select g, count(*) as n from m1 group by g;
refresh materialized view m1;
select * from m2;
-- expect: rows
-- | a | 2 |
-- | b | 1 |

-- case: a consumer reads a producer created later in the chain
-- derive-only: materialized views
create materialized view m1 as select k, g, v from t;
create materialized view m2 as select g, max(v) as hi from m1 group by g;
create materialized view m3 as select k, g from m1 where g = 'a';
update t set v = 99, g = 'a' where k = 3;
select * from m2;
-- expect: rows
-- | a | 99 |
select k from m3;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |

-- case: dropping a producer with a consumer is refused
-- derive-only: materialized views
create materialized view m1 as select k, g from t;
create materialized view m2 as select g, count(*) as n from m1 group by g;
drop materialized view m1;
-- expect: error m2

-- case: dropping the consumer then the producer
-- derive-only: materialized views
create materialized view m1 as select k, g from t;
create materialized view m2 as select g, count(*) as n from m1 group by g;
drop materialized view m2;
drop materialized view m1;
select count(*) from materialized_views();
-- expect: rows
-- | 0 |

-- case: dropping a source reached through a chain names the view
-- derive-only: materialized views
create materialized view bm as select k, g from t;
create materialized view m2 as select g, count(*) as n from bm group by g;
drop table t;
-- expect: error bm

-- case: writes to a view over a view are refused
-- derive-only: materialized views
create materialized view m1 as select k, g from t;
create materialized view m2 as select k, g from m1;
update m2 set g = 'z';
-- expect: error reads a materialized view
