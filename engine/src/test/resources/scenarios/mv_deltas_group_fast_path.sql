-- The group arm's fast path (semantics §4.2): a body whose aggregates are all decomposable keeps
-- each group's row by the written rows' contributions, and a retracted extreme is sought through
-- the index src_g_v. Per statement, the exact changes the backing of v reports.
create table src (id integer primary key, g text, v integer, w text not null);
create index src_g_v on src (g, v);
insert into src values (1, 'a', 1, 'p'), (2, 'a', 2, 'q'), (3, 'b', 3, 'r');
create materialized view v as
  select g, count(*) as n, count(v) as c, sum(v) as s, total(v) as t, avg(v) as a, min(v) as lo, max(v) as hi
  from src group by g;
select arm from materialized_views() where name = 'v';
-- expect: rows
-- | group recompute |

-- case: an insert into a group is one update
-- derive-only: materialized views
insert into src values (4, 'a', 5, 's');
-- expect: delta v
-- | update | a | 2 | 2 | 3 | 3.0 | 1.5                | 1 | 2 |
-- |     to | a | 3 | 3 | 8 | 8.0 | 2.6666666666666665 | 1 | 5 |

-- case: an insert into a new group is an insert
-- derive-only: materialized views
insert into src values (4, 'c', 4, 's');
-- expect: delta v
-- | insert | c | 1 | 1 | 4 | 4.0 | 4.0 | 4 | 4 |

-- case: a key-preserving update is one update
-- derive-only: materialized views
update src set v = 0 where id = 2;
-- expect: delta v
-- | update | a | 2 | 2 | 3 | 3.0 | 1.5 | 1 | 2 |
-- |     to | a | 2 | 2 | 1 | 1.0 | 0.5 | 0 | 1 |

-- case: a group-moving update updates both groups
-- derive-only: materialized views
update src set g = 'b' where id = 1;
-- expect: delta v
-- | update | a | 2 | 2 | 3 | 3.0 | 1.5 | 1 | 2 |
-- |     to | a | 1 | 1 | 2 | 2.0 | 2.0 | 2 | 2 |
-- | update | b | 1 | 1 | 3 | 3.0 | 3.0 | 3 | 3 |
-- |     to | b | 2 | 2 | 4 | 4.0 | 2.0 | 1 | 3 |

-- case: a delete is an update of its group
-- derive-only: materialized views
delete from src where id = 1;
-- expect: delta v
-- | update | a | 2 | 2 | 3 | 3.0 | 1.5 | 1 | 2 |
-- |     to | a | 1 | 1 | 2 | 2.0 | 2.0 | 2 | 2 |

-- case: a group emptied is deleted, and inserted again when refilled
-- derive-only: materialized views
update src set g = 'c' where id = 3;
-- expect: delta v
-- | delete | b | 1 | 1 | 3 | 3.0 | 3.0 | 3 | 3 |
-- | insert | c | 1 | 1 | 3 | 3.0 | 3.0 | 3 | 3 |
insert into src values (5, 'b', 7, 's');
-- expect: delta v
-- | insert | b | 1 | 1 | 7 | 7.0 | 7.0 | 7 | 7 |
delete from src where id = 5;
-- expect: delta v
-- | delete | b | 1 | 1 | 7 | 7.0 | 7.0 | 7 | 7 |

-- case: a no-op update changes nothing
-- derive-only: materialized views
update src set v = v, g = g, w = 'z';
-- expect: delta v

-- case: a multi-row statement is one change per group
-- derive-only: materialized views
insert into src values (4, 'a', 4, 's'), (5, 'a', -5, 's'), (6, 'b', 6, 's');
-- expect: delta v
-- | update | a | 2 | 2 | 3 | 3.0 | 1.5 | 1  | 2 |
-- |     to | a | 4 | 4 | 2 | 2.0 | 0.5 | -5 | 4 |
-- | update | b | 1 | 1 | 3 | 3.0 | 3.0 | 3  | 3 |
-- |     to | b | 2 | 2 | 9 | 9.0 | 4.5 | 3  | 6 |
delete from src where v < 3;
-- expect: delta v
-- | update | a | 4 | 4 | 2 | 2.0 | 0.5 | -5 | 4 |
-- |     to | a | 1 | 1 | 4 | 4.0 | 4.0 | 4  | 4 |

-- case: a null argument counts as a row only, its sum is null and its total zero
-- derive-only: materialized views
update src set v = null where id = 3;
-- expect: delta v
-- | update | b | 1 | 1 | 3    | 3.0 | 3.0  | 3    | 3    |
-- |     to | b | 1 | 0 | NULL | 0.0 | NULL | NULL | NULL |
insert into src values (4, 'b', null, 's');
-- expect: delta v
-- | update | b | 1 | 0 | NULL | 0.0 | NULL | NULL | NULL |
-- |     to | b | 2 | 0 | NULL | 0.0 | NULL | NULL | NULL |
update src set v = 6 where id = 4;
-- expect: delta v
-- | update | b | 2 | 0 | NULL | 0.0 | NULL | NULL | NULL |
-- |     to | b | 2 | 1 | 6    | 6.0 | 6.0  | 6    | 6    |

-- case: retracting the minimum finds the next one
-- derive-only: materialized views
update src set v = 9 where id = 1;
-- expect: delta v
-- | update | a | 2 | 2 | 3  | 3.0  | 1.5 | 1 | 2 |
-- |     to | a | 2 | 2 | 11 | 11.0 | 5.5 | 2 | 9 |

-- case: retracting the maximum finds the next one
-- derive-only: materialized views
delete from src where id = 2;
-- expect: delta v
-- | update | a | 2 | 2 | 3 | 3.0 | 1.5 | 1 | 2 |
-- |     to | a | 1 | 1 | 1 | 1.0 | 1.0 | 1 | 1 |

-- case: a new value beyond a retracted extreme replaces it
-- derive-only: materialized views
update src set v = -4 where id = 1;
-- expect: delta v
-- | update | a | 2 | 2 | 3  | 3.0  | 1.5  | 1  | 2 |
-- |     to | a | 2 | 2 | -2 | -2.0 | -1.0 | -4 | 2 |

-- case: a failing statement leaves the group states as they were
-- derive-only: materialized views
insert into src values (4, 'a', 100, 's'), (1, 'a', 100, 's');
-- expect: error UNIQUE constraint failed: src.id
insert into src values (5, 'a', 0, 's');
-- expect: delta v
-- | update | a | 2 | 2 | 3 | 3.0 | 1.5 | 1 | 2 |
-- |     to | a | 3 | 3 | 3 | 3.0 | 1.0 | 0 | 2 |

-- case: rolling back to a savepoint restores the group states
-- derive-only: materialized views
begin;
insert into src values (4, 'a', 10, 's');
savepoint s1;
delete from src where id in (1, 2);
insert into src values (5, 'a', -1, 's');
rollback to s1;
insert into src values (6, 'a', 20, 's');
-- expect: delta v
-- | update | a | 3 | 3 | 13 | 13.0 | 4.333333333333333 | 1 | 10 |
-- |     to | a | 4 | 4 | 33 | 33.0 | 8.25              | 1 | 20 |
commit;

-- case: rolling back the transaction restores the group states
-- derive-only: materialized views
begin;
delete from src where id = 1;
update src set g = 'a' where id = 3;
rollback;
update src set v = 0 where id = 2;
-- expect: delta v
-- | update | a | 2 | 2 | 3 | 3.0 | 1.5 | 1 | 2 |
-- |     to | a | 2 | 2 | 1 | 1.0 | 0.5 | 0 | 1 |
