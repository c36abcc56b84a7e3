-- The per-row projection arm's deltas (semantics §4.1, §7 MV-016): per statement, the exact
-- changes the backing of v (a filtered projection) or of o (ordered by a column) reports.
create table src (id integer primary key, g text, v integer, w text not null);
insert into src values (1, 'a', 1, 'p'), (2, 'a', 2, 'q'), (3, 'b', 3, 'r');
create materialized view v as select id, g, v * 10 as t from src where v > 0;
create materialized view o as select id, w, v from src order by w;
select name, arm from materialized_views();
-- expect: rows
-- | v | per-row projection |
-- | o | per-row projection |

-- case: an insert in scope is one insert
-- derive-only: materialized views
insert into src values (4, 'c', 4, 's');
-- expect: delta v
-- | insert | 4 | c | 40 |

-- case: an insert out of scope changes nothing
-- derive-only: materialized views
insert into src values (4, 'c', 0, 's');
-- expect: delta v

-- case: a key-preserving update is one update
-- derive-only: materialized views
update src set v = 5 where id = 1;
-- expect: delta v
-- | update | 1 | a | 10 |
-- |     to | 1 | a | 50 |

-- case: a key-moving update is a delete and an insert
-- derive-only: materialized views
update src set id = 9 where id = 1;
-- expect: delta v
-- | delete | 1 | a | 10 |
-- | insert | 9 | a | 10 |

-- case: an update of an unprojected column changes nothing
-- derive-only: materialized views
update src set w = 'z' where id = 1;
-- expect: delta v

-- case: a no-op update changes nothing
-- derive-only: materialized views
update src set v = v, g = g;
-- expect: delta v

-- case: an update leaving the scope is a delete
-- derive-only: materialized views
update src set v = 0 where id = 2;
-- expect: delta v
-- | delete | 2 | a | 20 |

-- case: an update entering the scope is an insert
-- derive-only: materialized views
insert into src values (4, 'c', 0, 's');
update src set v = 7 where id = 4;
-- expect: delta v
-- | insert | 4 | c | 70 |

-- case: a delete is a delete
-- derive-only: materialized views
delete from src where id = 3;
-- expect: delta v
-- | delete | 3 | b | 30 |

-- case: a multi-row insert is one insert per row in scope
-- derive-only: materialized views
insert into src values (4, 'c', 4, 's'), (5, 'c', 0, 's'), (6, 'd', 6, 's');
-- expect: delta v
-- | insert | 4 | c | 40 |
-- | insert | 6 | d | 60 |

-- case: a multi-row update is one update per changed row
-- derive-only: materialized views
update src set v = v + 1 where g = 'a';
-- expect: delta v
-- | update | 1 | a | 10 |
-- |     to | 1 | a | 20 |
-- | update | 2 | a | 20 |
-- |     to | 2 | a | 30 |

-- case: a multi-row delete is one delete per row in scope
-- derive-only: materialized views
delete from src where id >= 2;
-- expect: delta v
-- | delete | 2 | a | 20 |
-- | delete | 3 | b | 30 |

-- case: a failing statement leaves the view as it was
-- derive-only: materialized views
insert into src values (4, 'c', 4, 's'), (1, 'dup', 1, 's');
-- expect: error UNIQUE constraint failed: src.id
select id from v;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |

-- case: ordered by a column, changing that column is a delete and an insert
-- derive-only: materialized views
update src set w = 'z' where id = 1;
-- expect: delta o
-- | delete | 1 | p | 1 |
-- | insert | 1 | z | 1 |

-- case: ordered by a column, changing another column is an update
-- derive-only: materialized views
update src set v = 8 where id = 1;
-- expect: delta o
-- | update | 1 | p | 1 |
-- |     to | 1 | p | 8 |
