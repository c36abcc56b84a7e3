-- Materialized views with the per-row projection arm (semantics.md §2-§4). Derive-only syntax.
create table orders (id integer primary key, customer text, amount integer, status text);
insert into orders values (1, 'ann', 10, 'open'), (2, 'bob', 20, 'closed'), (3, 'cid', 30, 'open');

-- case: create fills the view
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
select * from open_orders;
-- expect: rows
-- | 1 | ann | 10 |
-- | 3 | cid | 30 |

-- case: insert into source reaches the view
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
insert into orders values (4, 'dan', 40, 'open'), (5, 'eve', 50, 'closed');
select id from open_orders;
-- expect: rows
-- | 1 |
-- | 3 |
-- | 4 |

-- case: update moving a row out of scope removes it
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
update orders set status = 'closed' where id = 1;
select id from open_orders;
-- expect: rows
-- | 3 |

-- case: update moving a row into scope adds it
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
update orders set status = 'open' where id = 2;
select id, customer from open_orders;
-- expect: rows
-- | 1 | ann |
-- | 2 | bob |
-- | 3 | cid |

-- case: update of a projected column
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
update orders set amount = amount + 5;
select id, amount from open_orders;
-- expect: rows
-- | 1 | 15 |
-- | 3 | 35 |

-- case: update of the key re-keys the view row
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
update orders set id = 7 where id = 1;
select id, customer from open_orders;
-- expect: rows
-- | 3 | cid |
-- | 7 | ann |

-- case: delete reaches the view
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
delete from orders where customer = 'ann';
select id from open_orders;
-- expect: rows
-- | 3 |

-- case: view with computed column
-- derive-only: materialized views
create materialized view doubled as select id, amount * 2 as twice from orders;
update orders set amount = 1 where id = 2;
select id, twice from doubled;
-- expect: rows
-- | 1 | 20 |
-- | 2 | 2  |
-- | 3 | 60 |

-- case: view with column list renames outputs
-- derive-only: materialized views
create materialized view v (oid, who) as select id, customer from orders;
select who from v where oid = 2;
-- expect: rows
-- | bob |
-- expect: columns who

-- case: column list of the wrong length fails
-- derive-only: materialized views
create materialized view v (a, b, c) as select id, customer from orders;
-- expect: error has 3 declared columns but body produces 2

-- case: view equals its body after mixed writes
-- derive-only: materialized views
create materialized view big as select id, customer from orders where amount >= 20;
insert into orders values (10, 'x', 25, 'open');
update orders set amount = 5 where id = 2;
delete from orders where id = 3;
insert into orders values (11, 'y', 1, 'open');
select * from big;
-- expect: rows
-- | 10 | x |

-- case: rollback undoes view maintenance
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
begin;
insert into orders values (4, 'dan', 40, 'open');
select id from open_orders;
-- expect: rows
-- | 1 |
-- | 3 |
-- | 4 |
rollback;
select id from open_orders;
-- expect: rows
-- | 1 |
-- | 3 |

-- case: failing source write leaves the view unchanged
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
insert into orders values (4, 'dan', 40, 'open'), (1, 'dup', 0, 'open');
-- expect: error UNIQUE constraint failed: orders.id
select id from open_orders;
-- expect: rows
-- | 1 |
-- | 3 |

-- case: refresh keeps contents equal to the body
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
refresh materialized view open_orders;
select id from open_orders;
-- expect: rows
-- | 1 |
-- | 3 |

-- case: refresh unknown view fails
-- derive-only: materialized views
refresh materialized view nope;
-- expect: error no such materialized view: nope

-- case: refresh a plain table fails
-- derive-only: materialized views
refresh materialized view orders;
-- expect: error 'orders' is a table, not a materialized view

-- case: drop materialized view removes it
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
drop materialized view open_orders;
select * from open_orders;
-- expect: error no such table

-- case: drop materialized view if exists on unknown
-- derive-only: materialized views
drop materialized view if exists nope;
select 1;
-- expect: rows
-- | 1 |

-- case: drop unknown materialized view fails
-- derive-only: materialized views
drop materialized view nope;
-- expect: error no such materialized view: nope

-- case: drop materialized view on a table fails
-- derive-only: materialized views
drop materialized view orders;
-- expect: error use DROP TABLE

-- case: drop table on a source of a view fails
-- derive-only: materialized views
create materialized view open_orders as select id, customer, amount from orders where status = 'open';
drop table orders;
-- expect: error materialized view 'main.open_orders' reads it

-- case: an insert naming a computed column of a view fails
-- derive-only: materialized views
create materialized view totals as select id, amount * 2 as twice from orders;
insert into totals values (9, 9);
-- expect: error non-invertible

-- case: a delete from a projection view deletes its source rows
-- derive-only: materialized views
create materialized view totals as select id, amount * 2 as twice from orders;
delete from totals where twice > 30;
-- expect: count 2
select id from orders;
-- expect: rows
-- | 1 |

-- case: a delete from a grouped view fails
-- derive-only: materialized views
create materialized view by_status as select status, count(*) as n from orders group by status;
delete from by_status;
-- expect: error cannot write through materialized view 'main.by_status'

-- case: duplicate view name fails
-- derive-only: materialized views
create materialized view v as select id from orders;
create materialized view v as select id from orders;
-- expect: error Materialized view 'main.v' already exists

-- case: view named like a table fails
-- derive-only: materialized views
create materialized view orders as select id from orders;
-- expect: error already exists

-- case: create if not exists keeps the first
-- derive-only: materialized views
create materialized view v as select id from orders where id = 1;
create materialized view if not exists v as select id from orders;
select id from v;
-- expect: rows
-- | 1 |

-- case: body without the key fails
-- derive-only: materialized views
create materialized view v as select customer from orders;
-- expect: error no provable unique key

-- case: body without a source fails
-- derive-only: materialized views
create materialized view v as select 1 as one;
-- expect: error reads no source table

-- case: non-deterministic body fails
-- derive-only: materialized views
create materialized view v as select id, random() as r from orders;
-- expect: error non-deterministic expression column 'r'

-- case: body over unknown table fails
-- derive-only: materialized views
create materialized view v as select id from nope;
-- expect: error no such table: nope

-- case: create inside a rolled back transaction leaves nothing
-- derive-only: materialized views
begin;
create materialized view v as select id from orders;
rollback;
select * from v;
-- expect: error no such table

-- case: view orders by declared order by
-- derive-only: materialized views
create materialized view by_amount as select id, amount from orders order by amount desc;
select id from by_amount;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |

-- case: view over view
-- derive-only: materialized views
create materialized view a as select id, amount from orders;
create materialized view b as select id from a where amount > 15;
insert into orders values (4, 'd', 100, 'open');
select id from b;
-- expect: rows
-- | 2 |
-- | 3 |
-- | 4 |

-- case: group by view recomputes groups
-- derive-only: materialized views
create materialized view per_status as select status, count(*) as n, sum(amount) as total from orders group by status;
insert into orders values (4, 'd', 5, 'open');
select * from per_status;
-- expect: rows
-- | closed | 1 | 20 |
-- | open   | 3 | 45 |
