-- Scalar, in, exists and derived-table subqueries, correlated or not.
create table p (id integer primary key, name text, dept integer);
create table d (id integer primary key, title text);
insert into p values (1, 'ann', 10), (2, 'bob', 20), (3, 'cid', 10), (4, 'dan', null);
insert into d values (10, 'eng'), (20, 'ops'), (30, 'hr');

-- case: scalar subquery
select (select title from d where id = 20);
-- expect: rows
-- | ops |

-- case: scalar subquery with no row is null
select (select title from d where id = 99);
-- expect: rows
-- | NULL |

-- case: correlated scalar subquery in select list
select name, (select title from d where d.id = p.dept) from p;
-- expect: rows
-- | ann | eng  |
-- | bob | ops  |
-- | cid | eng  |
-- | dan | NULL |

-- case: in subquery
select name from p where dept in (select id from d where title <> 'ops');
-- expect: rows
-- | ann |
-- | cid |

-- case: not in subquery with null in the list
select title from d where id not in (select dept from p);
-- expect: rows

-- case: not in subquery without nulls
select title from d where id not in (select dept from p where dept is not null);
-- expect: rows
-- | hr |

-- case: exists correlated
select title from d where exists (select 1 from p where p.dept = d.id);
-- expect: rows
-- | eng |
-- | ops |

-- case: not exists correlated
select title from d where not exists (select 1 from p where p.dept = d.id);
-- expect: rows
-- | hr |

-- case: derived table
select x.n from (select name as n, dept from p where dept = 10) as x;
-- expect: rows
-- | ann |
-- | cid |

-- case: derived table with aggregation
select max(c) from (select dept, count(*) as c from p group by dept);
-- expect: rows
-- | 2 |

-- case: scalar subquery with aggregate
select name from p where id = (select max(id) from p);
-- expect: rows
-- | dan |

-- case: correlated subquery with aggregate
select title, (select count(*) from p where p.dept = d.id) from d;
-- expect: rows
-- | eng | 2 |
-- | ops | 1 |
-- | hr  | 0 |

-- case: scalar subquery returning several rows takes the first
select (select id from p order by id desc);
-- expect: rows
-- | 4 |

-- case: subquery in update
update p set dept = (select id from d where title = 'hr') where dept is null;
select dept from p where id = 4;
-- expect: rows
-- | 30 |

-- case: subquery in delete
delete from p where dept in (select id from d where title = 'eng');
-- expect: count 2

-- case: exists uncorrelated
select exists (select 1 from p where name = 'bob'), exists (select 1 from p where name = 'zed');
-- expect: rows
-- | 1 | 0 |

-- case: nested subqueries
select name from p where dept = (select id from d where id = (select min(id) from d));
-- expect: rows
-- | ann |
-- | cid |

-- case: insert from derived table
create table q (id integer primary key, name text);
insert into q select id, name from (select * from p where id > 2);
select name from q;
-- expect: rows
-- | cid |
-- | dan |
