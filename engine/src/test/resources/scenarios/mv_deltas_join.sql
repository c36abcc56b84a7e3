-- The 1:1 join arm's deltas (semantics §4.3, §7 MV-016): per statement, the exact changes the
-- backing of v reports, for writes to the driving table src and to the lookup table other.
create table src (id integer primary key, g text, v integer, w text not null);
insert into src values (1, 'a', 1, 'p'), (2, 'a', 2, 'q'), (3, 'b', 3, 'r');
create table other (k integer primary key, x integer);
insert into other values (1, 100), (3, 300);
create materialized view v as select src.id, src.v, other.x from src left join other on other.k = src.id;
select arm from materialized_views() where name = 'v';
-- expect: rows
-- | 1:1 join |

-- case: an insert is an insert
-- derive-only: materialized views
insert into src values (4, 'c', 4, 's');
-- expect: delta v
-- | insert | 4 | 4 | NULL |

-- case: a lookup-side insert is an update of the matching row
-- derive-only: materialized views
insert into other values (2, 200);
-- expect: delta v
-- | update | 2 | 2 | NULL |
-- |     to | 2 | 2 | 200  |

-- case: a key-preserving update is an update
-- derive-only: materialized views
update src set v = 9 where id = 1;
-- expect: delta v
-- | update | 1 | 1 | 100 |
-- |     to | 1 | 9 | 100 |

-- case: an update setting the key to itself changes nothing
-- derive-only: materialized views
update src set id = 3, v = 3 where id = 3;
-- expect: delta v

-- case: a key-moving update is a delete and an insert
-- derive-only: materialized views
update src set id = 7 where id = 3;
-- expect: delta v
-- | delete | 3 | 3 | 300  |
-- | insert | 7 | 3 | NULL |

-- case: a no-op update changes nothing
-- derive-only: materialized views
update src set v = v;
-- expect: delta v

-- case: a delete is a delete
-- derive-only: materialized views
delete from src where id = 2;
-- expect: delta v
-- | delete | 2 | 2 | NULL |

-- case: a multi-row statement is one keyed diff
-- derive-only: materialized views
update src set v = v * 2;
-- expect: delta v
-- | update | 1 | 1 | 100  |
-- |     to | 1 | 2 | 100  |
-- | update | 2 | 2 | NULL |
-- |     to | 2 | 4 | NULL |
-- | update | 3 | 3 | 300  |
-- |     to | 3 | 6 | 300  |
