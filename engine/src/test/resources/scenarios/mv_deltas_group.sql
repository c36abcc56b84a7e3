-- The group recompute arm's deltas (semantics §4.2, §7 MV-016): per statement, the exact changes
-- the backing of v reports; a group's row is one change however many of its rows were written.
create table src (id integer primary key, g text, v integer, w text not null);
insert into src values (1, 'a', 1, 'p'), (2, 'a', 2, 'q'), (3, 'b', 3, 'r');
create materialized view v as select g, count(*) as n, sum(v) as s, min(v) as lo from src group by g;
select arm from materialized_views() where name = 'v';
-- expect: rows
-- | group recompute |

-- case: an insert into a new group is an insert
-- derive-only: materialized views
insert into src values (4, 'c', 4, 's');
-- expect: delta v
-- | insert | c | 1 | 4 | 4 |

-- case: an insert into a group is an update of it
-- derive-only: materialized views
insert into src values (4, 'b', 4, 's');
-- expect: delta v
-- | update | b | 1 | 3 | 3 |
-- |     to | b | 2 | 7 | 3 |

-- case: an update inside a group is an update
-- derive-only: materialized views
update src set v = 0 where id = 2;
-- expect: delta v
-- | update | a | 2 | 3 | 1 |
-- |     to | a | 2 | 1 | 0 |

-- case: an update moving a row between groups updates both
-- derive-only: materialized views
update src set g = 'b' where id = 1;
-- expect: delta v
-- | update | a | 2 | 3 | 1 |
-- |     to | a | 1 | 2 | 2 |
-- | update | b | 1 | 3 | 3 |
-- |     to | b | 2 | 4 | 1 |

-- case: an update emptying a group deletes it and creates the new one
-- derive-only: materialized views
update src set g = 'c' where id = 3;
-- expect: delta v
-- | delete | b | 1 | 3 | 3 |
-- | insert | c | 1 | 3 | 3 |

-- case: a no-op update changes nothing
-- derive-only: materialized views
update src set v = v;
-- expect: delta v

-- case: an update of an unread column changes nothing
-- derive-only: materialized views
update src set w = 'z';
-- expect: delta v

-- case: deleting the last row of a group deletes it
-- derive-only: materialized views
delete from src where id = 3;
-- expect: delta v
-- | delete | b | 1 | 3 | 3 |

-- case: a multi-row insert into one group is one update
-- derive-only: materialized views
insert into src values (4, 'a', 4, 's'), (5, 'a', -5, 's'), (6, 'a', 6, 's');
-- expect: delta v
-- | update | a | 2 | 3 | 1  |
-- |     to | a | 5 | 8 | -5 |

-- case: a multi-row delete across groups changes each once
-- derive-only: materialized views
delete from src where id in (2, 3);
-- expect: delta v
-- | update | a | 2 | 3 | 1 |
-- |     to | a | 1 | 1 | 1 |
-- | delete | b | 1 | 3 | 3 |

-- case: a null group key is its own group
-- derive-only: materialized views
insert into src values (4, null, 4, 's'), (5, null, 5, 's');
-- expect: delta v
-- | insert | NULL | 2 | 9 | 4 |
update src set g = 'a' where id = 4;
-- expect: delta v
-- | update | NULL | 2 | 9 | 4 |
-- |     to | NULL | 1 | 5 | 5 |
-- | update | a    | 2 | 3 | 1 |
-- |     to | a    | 3 | 7 | 1 |
