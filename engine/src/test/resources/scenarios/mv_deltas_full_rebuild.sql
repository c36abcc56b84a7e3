-- The full rebuild arm's deltas (semantics §4.5, §7 MV-016): the body is evaluated again and the
-- backing reports the keyed diff of the old rows and the new, per statement.
create table src (id integer primary key, g text, v integer, w text not null);
insert into src values (1, 'a', 1, 'p'), (2, 'a', 2, 'q'), (3, 'b', 3, 'r');
create table other (k integer primary key);
insert into other values (5);
create materialized view v as select id, v from src where id not in (select k from other);
select arm from materialized_views() where name = 'v';
-- expect: rows
-- | full rebuild |

-- case: an insert is an insert
-- derive-only: materialized views
insert into src values (4, 'c', 4, 's');
-- expect: delta v
-- | insert | 4 | 4 |

-- case: a write to the other source is the keyed diff
-- derive-only: materialized views
insert into other values (2);
-- expect: delta v
-- | delete | 2 | 2 |

-- case: a key-preserving update is an update
-- derive-only: materialized views
update src set v = 9 where id = 1;
-- expect: delta v
-- | update | 1 | 1 |
-- |     to | 1 | 9 |

-- case: a key-moving update is a delete and an insert
-- derive-only: materialized views
update src set id = 7 where id = 3;
-- expect: delta v
-- | delete | 3 | 3 |
-- | insert | 7 | 3 |

-- case: a no-op update changes nothing
-- derive-only: materialized views
update src set v = v, w = w;
-- expect: delta v

-- case: a delete is a delete
-- derive-only: materialized views
delete from src where id = 2;
-- expect: delta v
-- | delete | 2 | 2 |

-- case: a multi-row statement is one keyed diff
-- derive-only: materialized views
update src set v = v * 2;
-- expect: delta v
-- | update | 1 | 1 |
-- |     to | 1 | 2 |
-- | update | 2 | 2 |
-- |     to | 2 | 4 |
-- | update | 3 | 3 |
-- |     to | 3 | 6 |
