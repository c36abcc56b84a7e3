-- Derived-row constraints (semantics §6, seed mv-constraints.md): the rules beyond "a derived row
-- must pass its table's CHECK, UNIQUE and FOREIGN KEY" — no OLD/NEW images, RESTRICT from
-- maintenance, no conflict clause masks a violation, foreign keys and table-reading CHECKs wait
-- for commit, validators follow the tables they read.
create table p (id integer primary key);
create table t (k integer primary key, v text not null, n integer, owner integer);
insert into p values (1);
insert into t values (1, 'a', 1, 1), (2, 'b', 2, null);
create table m (k integer primary key, v text not null, n integer, owner integer,
                constraint positive check (n > 0), constraint one_v unique (v),
                constraint owner_fk foreign key (owner) references p (id))
  maintained as select k, v, n, owner from t;

-- ---- 1. a CHECK naming old. or new. is refused at registration, and nothing changes

-- case: the table form refuses a check naming new
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer, constraint ck check (new.n > 0)) maintained as select k, n from t;
-- expect: error cannot maintain 'main.s': CHECK constraint ck references OLD/NEW row images
select count(*) from schema() where name = 's';
-- expect: rows
-- | 0 |

-- case: the table form refuses a column check naming old
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer check (old.n is null)) maintained as select k, n from t;
-- expect: error references OLD/NEW row images
select count(*) from schema() where name = 's';
-- expect: rows
-- | 0 |

-- case: the table form refuses old inside a subquery of a check
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer,
                constraint ck check (n in (select id from p where id = old.n))) maintained as select k, n from t;
-- expect: error cannot maintain 'main.s': CHECK constraint ck references OLD/NEW row images

-- case: add constraint on a maintained table refuses a check naming new
-- derive-only: maintained tables are Derive's
alter table m add constraint small check (new.n < 100);
-- expect: error cannot maintain 'main.m': CHECK constraint small references OLD/NEW row images
insert into t values (3, 'c', 500, null);
select n from m where k = 3;
-- expect: rows
-- | 500 |

-- case: a qualifier naming the table itself is no row image
-- derive-only: maintained tables are Derive's
create table new (k integer primary key, n integer, constraint ck check (new.n > 0));
alter table new set maintained as select k, n from t;
select k, n from new;
-- expect: rows
-- | 1 | 1 |
-- | 2 | 2 |

-- case: a subquery's table alias named new is no row image
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer,
                constraint ck check (n in (select new.id + 1 from p as new union select 1))) maintained as select k, n from t;
select k, n from s;
-- expect: rows
-- | 1 | 1 |
-- | 2 | 2 |

-- ---- 2. RESTRICT from maintenance fails the source write, naming the change and the child

-- case: a maintenance delete of a row a restrict child references
-- derive-only: maintained tables are Derive's
create table c (id integer primary key, m_k integer references m (k) on delete restrict);
insert into c values (10, 1);
delete from t where k = 1;
-- expect: error FOREIGN KEY constraint failed: DELETE on 'm' violates RESTRICT from 'c'
select k from t;
-- expect: rows
-- | 1 |
-- | 2 |
select k from m;
-- expect: rows
-- | 1 |
-- | 2 |
delete from t where k = 2;
-- expect: count 1

-- case: a maintenance re-key is a delete of the old key
-- derive-only: maintained tables are Derive's
create table c (id integer primary key, m_k integer references m (k) on delete restrict on update cascade);
insert into c values (10, 1);
update t set k = 7 where k = 1;
-- expect: error FOREIGN KEY constraint failed: DELETE on 'm' violates RESTRICT from 'c'
select k, v from m;
-- expect: rows
-- | 1 | a |
-- | 2 | b |

-- case: a maintenance update of a referenced unique value
-- derive-only: maintained tables are Derive's
create table c (id integer primary key, m_v text references m (v) on update restrict);
insert into c values (10, 'a');
update t set v = 'z' where k = 1;
-- expect: error FOREIGN KEY constraint failed: UPDATE on 'm' violates RESTRICT from 'c'
update t set n = 9 where k = 1;
-- expect: count 1
select v, n from m where k = 1;
-- expect: rows
-- | a | 9 |

-- case: restrict fires even when the row comes back later in the statement
-- derive-only: maintained tables are Derive's
create table c (id integer primary key, m_k integer references m (k) on delete restrict);
insert into c values (10, 1);
replace into t values (1, 'a2', 5, 1);
-- expect: error FOREIGN KEY constraint failed: DELETE on 'm' violates RESTRICT from 'c'
select v from m where k = 1;
-- expect: rows
-- | a |

-- case: no action waits for the end of the statement
-- derive-only: maintained tables are Derive's
create table c (id integer primary key, m_k integer references m (k));
insert into c values (10, 1);
replace into t values (1, 'a2', 5, 1);
select v from m where k = 1;
-- expect: rows
-- | a2 |
delete from t where k = 1;
-- expect: error FOREIGN KEY constraint failed: DELETE on 'm' leaves rows of 'c' referencing a missing parent (NO ACTION)
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: restrict from the end-of-statement flush of a group view
-- derive-only: materialized views are Derive's
create materialized view g as select owner, count(*) as n from t where owner is not null group by owner;
create table cg (id integer primary key, owner integer references g (owner) on delete restrict);
insert into cg values (1, 1);
update t set owner = null where k = 1;
-- expect: error FOREIGN KEY constraint failed: DELETE on 'g' violates RESTRICT from 'cg'
select owner, n from g;
-- expect: rows
-- | 1 | 1 |
select owner from t where k = 1;
-- expect: rows
-- | 1 |

-- case: a foreign keys pragma off lets maintenance delete a referenced row
-- derive-only: maintained tables are Derive's
create table c (id integer primary key, m_k integer references m (k) on delete restrict);
insert into c values (10, 1);
pragma foreign_keys = off;
delete from t where k = 1;
-- expect: count 1
select k from m;
-- expect: rows
-- | 2 |

-- ---- 3. a derived row's violation is never masked by the source statement's conflict clause

-- case: insert or ignore does not skip a derived check violation
-- derive-only: maintained tables are Derive's
insert or ignore into t values (3, 'c', -1, null);
-- expect: error CHECK constraint failed: positive (n > 0) — row derived into maintained table 'main.m' violates its declared constraint
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: insert or ignore fails the whole statement, the ignored rows too
-- derive-only: maintained tables are Derive's
insert or ignore into t values (1, 'x', 1, null), (3, 'c', 3, null), (4, 'd', -1, null);
-- expect: error row derived into maintained table 'main.m' violates its declared constraint
select k, v from t;
-- expect: rows
-- | 1 | a |
-- | 2 | b |
select k from m;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: insert or replace does not evict a derived unique collision
-- derive-only: maintained tables are Derive's
insert or replace into t values (3, 'a', 3, null);
-- expect: error UNIQUE constraint failed: one_v (v) — row derived into maintained table 'main.m' collides on its declared UNIQUE constraint (key: 'a')
select k, v from m;
-- expect: rows
-- | 1 | a |
-- | 2 | b |

-- case: replace of a source row does not mask its derived check
-- derive-only: maintained tables are Derive's
replace into t values (1, 'a', -1, 1);
-- expect: error row derived into maintained table 'main.m' violates its declared constraint
select n from m where k = 1;
-- expect: rows
-- | 1 |

-- case: on conflict do nothing does not mask a derived violation
-- derive-only: maintained tables are Derive's
insert into t values (3, 'c', -1, null) on conflict do nothing;
-- expect: error row derived into maintained table 'main.m' violates its declared constraint
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: on conflict do update does not mask a derived violation
-- derive-only: maintained tables are Derive's
insert into t values (1, 'a', 1, 1) on conflict (k) do update set n = -5;
-- expect: error row derived into maintained table 'main.m' violates its declared constraint
select n from t where k = 1;
-- expect: rows
-- | 1 |

-- case: insert or fail keeps nothing when a derived row fails
-- derive-only: maintained tables are Derive's
insert or fail into t values (3, 'c', 3, null), (4, 'd', -1, null);
-- expect: error row derived into maintained table 'main.m' violates its declared constraint
select count(*) from t;
-- expect: rows
-- | 2 |
select count(*) from m;
-- expect: rows
-- | 2 |

-- case: insert or fail keeps the rows before a source conflict, their derived rows checked
-- derive-only: maintained tables are Derive's
insert or fail into t values (3, 'c', 3, null), (1, 'dup', 1, null);
-- expect: error UNIQUE constraint failed: t.k
select k from m;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |

-- case: insert or fail keeps nothing when a kept row's derived foreign key fails at commit
-- derive-only: maintained tables are Derive's
insert or fail into t values (3, 'c', 3, 9), (1, 'dup', 1, null);
-- expect: error references a missing 'main.p'
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: update or ignore does not skip a derived violation
-- derive-only: maintained tables are Derive's
update or ignore t set n = -1 where k = 2;
-- expect: error row derived into maintained table 'main.m' violates its declared constraint
select n from m where k = 2;
-- expect: rows
-- | 2 |

-- case: insert or rollback aborts only the statement for a derived violation
-- derive-only: maintained tables are Derive's
begin;
insert into t values (3, 'c', 3, null);
insert or rollback into t values (4, 'd', -1, null);
-- expect: error row derived into maintained table 'main.m' violates its declared constraint
commit;
select k from m;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |

-- case: insert or ignore does not skip a derived foreign key
-- derive-only: maintained tables are Derive's
insert or ignore into t values (3, 'c', 3, 9);
-- expect: error FOREIGN KEY constraint failed: owner_fk — row derived into maintained table 'main.m' references a missing 'main.p'
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: or ignore through a write-through does not mask a derived violation
-- derive-only: maintained tables are Derive's
insert or ignore into m values (3, 'c', -1, null);
-- expect: error row derived into maintained table 'main.m' violates its declared constraint
select count(*) from t;
-- expect: rows
-- | 2 |

-- ---- 4. foreign keys and table-reading CHECKs of derived rows wait for commit

-- case: a parent added later in the transaction
-- derive-only: maintained tables are Derive's
begin;
insert into t values (3, 'c', 3, 7);
select owner from m where k = 3;
-- expect: rows
-- | 7 |
insert into p values (7);
commit;
select k, owner from m;
-- expect: rows
-- | 1 | 1    |
-- | 2 | NULL |
-- | 3 | 7    |

-- case: a parent still missing at commit fails the commit and rolls back
-- derive-only: maintained tables are Derive's
begin;
insert into p values (8);
insert into t values (3, 'c', 3, 7);
commit;
-- expect: error FOREIGN KEY constraint failed: owner_fk — row derived into maintained table 'main.m' references a missing 'main.p'
select count(*) from t;
-- expect: rows
-- | 2 |
select count(*) from m;
-- expect: rows
-- | 2 |
select count(*) from p;
-- expect: rows
-- | 1 |

-- case: in autocommit a missing parent fails the statement
-- derive-only: maintained tables are Derive's
insert into t values (3, 'c', 3, 7);
-- expect: error FOREIGN KEY constraint failed: owner_fk — row derived into maintained table 'main.m' references a missing 'main.p'
select count(*) from m;
-- expect: rows
-- | 2 |

-- case: a row checked at commit as it is then
-- derive-only: maintained tables are Derive's
begin;
insert into t values (3, 'c', 3, 7), (4, 'd', 4, 8);
update t set owner = 1 where k = 3;
delete from t where k = 4;
commit;
select k, owner from m;
-- expect: rows
-- | 1 | 1    |
-- | 2 | NULL |
-- | 3 | 1    |

-- case: a parent deleted later in the transaction
-- derive-only: maintained tables are Derive's
insert into p values (7);
begin;
insert into t values (3, 'c', 3, 7);
delete from p where id = 7;
commit;
-- expect: error references a missing 'main.p'
select count(*) from m;
-- expect: rows
-- | 2 |

-- case: deleting the parent of a derived row fails
-- derive-only: maintained tables are Derive's
delete from p where id = 1;
-- expect: error FOREIGN KEY constraint failed: owner_fk — row derived into maintained table 'main.m' references a missing 'main.p'
select count(*) from p;
-- expect: rows
-- | 1 |

-- case: a derived row may find another parent by commit
-- derive-only: maintained tables are Derive's
begin;
insert into p values (2);
delete from p where id = 1;
update t set owner = 2 where k = 1;
commit;
select k, owner from m where k = 1;
-- expect: rows
-- | 1 | 2 |

-- case: a parent key change is checked for its derived rows
-- derive-only: maintained tables are Derive's
update p set id = 3 where id = 1;
-- expect: error references a missing 'main.p'
begin;
update p set id = 3 where id = 1;
update t set owner = 3 where owner = 1;
commit;
select owner from m where k = 1;
-- expect: rows
-- | 3 |

-- case: a maintained table's restrict foreign key fails a parent delete at once
-- derive-only: maintained tables are Derive's
create table mr (k integer primary key, owner integer references p (id) on delete restrict)
  maintained as select k, owner from t;
begin;
delete from p where id = 1;
-- expect: error FOREIGN KEY constraint failed: DELETE on 'p' violates RESTRICT from 'mr'
commit;
select count(*) from p;
-- expect: rows
-- | 1 |

-- case: a maintained table's cascade foreign key writes nothing into it
-- derive-only: maintained tables are Derive's
create table pp (id integer primary key);
insert into pp values (1), (2);
create table mc (k integer primary key, n integer references pp (id) on delete cascade)
  maintained as select k, n from t;
delete from pp where id = 1;
-- expect: error FOREIGN KEY constraint failed — row derived into maintained table 'main.mc' references a missing 'main.pp'
select k from mc;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: rolling back to a savepoint discards its rows' checks
-- derive-only: maintained tables are Derive's
begin;
savepoint s;
insert into t values (3, 'c', 3, 7);
rollback to s;
insert into t values (4, 'd', 4, 1);
commit;
select k from m;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 4 |

-- case: an inline check still aborts at once inside a transaction
-- derive-only: maintained tables are Derive's
begin;
insert into t values (3, 'c', -1, null);
-- expect: error CHECK constraint failed: positive (n > 0)
insert into t values (4, 'd', 4, null);
commit;
select k from m;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 4 |

-- case: a unique collision still aborts at once inside a transaction
-- derive-only: maintained tables are Derive's
begin;
insert into t values (3, 'a', 3, null);
-- expect: error collides on its declared UNIQUE constraint
rollback;

-- case: the foreign keys pragma is read when the check runs
-- derive-only: maintained tables are Derive's
begin;
insert into t values (3, 'c', 3, 7);
pragma foreign_keys = off;
commit;
pragma foreign_keys = on;
select owner from m where k = 3;
-- expect: rows
-- | 7 |

-- case: rows derived while foreign keys are off are not checked later
-- derive-only: maintained tables are Derive's
pragma foreign_keys = off;
begin;
insert into t values (3, 'c', 3, 7);
pragma foreign_keys = on;
commit;
select owner from m where k = 3;
-- expect: rows
-- | 7 |

-- case: a null reference needs no parent
-- derive-only: maintained tables are Derive's
begin;
insert into t values (3, 'c', 3, null);
commit;
select count(*) from m;
-- expect: rows
-- | 3 |

-- case: a parent derived by the same write, maintained after the child
-- derive-only: maintained tables are Derive's
pragma foreign_keys = off;
create table d (k integer primary key, ref integer not null references e (k)) maintained as select k, k as ref from t;
create table e (k integer primary key) maintained as select k from t;
pragma foreign_keys = on;
insert into t values (3, 'c', 3, null);
select k, ref from d;
-- expect: rows
-- | 1 | 1 |
-- | 2 | 2 |
-- | 3 | 3 |
delete from t where k = 3;
-- expect: count 1

-- case: a refresh does not re-check rows admitted while foreign keys were off
-- derive-only: maintained tables are Derive's
pragma foreign_keys = off;
insert into t values (3, 'c', 3, 7);
pragma foreign_keys = on;
refresh materialized view m;
select owner from m where k = 3;
-- expect: rows
-- | 7 |

-- case: a table-reading check of a maintained table waits for commit
-- derive-only: subqueries in CHECK are Derive's
create table q (x integer primary key);
insert into q values (1), (2);
create table r (k integer primary key, n integer, constraint listed check (n in (select x from q)))
  maintained as select k, n from t;
begin;
insert into t values (3, 'c', 9, null);
insert into q values (9);
commit;
select k, n from r;
-- expect: rows
-- | 1 | 1 |
-- | 2 | 2 |
-- | 3 | 9 |
insert into t values (4, 'd', 8, null);
-- expect: error CHECK constraint failed: listed (n in (select x from q)) — row derived into maintained table 'main.r' violates its declared constraint
select count(*) from r;
-- expect: rows
-- | 3 |

-- case: a table-reading check fails the commit
-- derive-only: subqueries in CHECK are Derive's
create table q (x integer primary key);
insert into q values (1), (2);
create table r (k integer primary key, n integer, constraint listed check (n in (select x from q)))
  maintained as select k, n from t;
begin;
insert into t values (3, 'c', 8, null);
commit;
-- expect: error CHECK constraint failed: listed
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: a table-reading check is checked at once by the fill
-- derive-only: subqueries in CHECK are Derive's
create table q (x integer primary key);
insert into q values (1);
begin;
create table r (k integer primary key, n integer, constraint listed check (n in (select x from q)))
  maintained as select k, n from t;
-- expect: error CHECK constraint failed: listed
rollback;

-- case: the fill checks foreign keys at once, inside a transaction too
-- derive-only: maintained tables are Derive's
pragma foreign_keys = off;
insert into t values (3, 'c', 3, 7);
pragma foreign_keys = on;
begin;
create table m2 (k integer primary key, owner integer references p (id)) maintained as select k, owner from t;
-- expect: error references a missing 'main.p'
rollback;
select count(*) from schema() where name = 'm2';
-- expect: rows
-- | 0 |

-- case: an ordinary table's table-reading check waits for commit
-- derive-only: subqueries in CHECK are Derive's
create table q (x integer primary key);
create table o (id integer primary key, x integer, constraint listed check (x in (select x from q)));
begin;
insert into o values (1, 5);
insert into q values (5);
commit;
insert into o values (2, 6);
-- expect: error CHECK constraint failed: listed
insert or ignore into o values (2, 6);
-- expect: error CHECK constraint failed: listed
select id from o;
-- expect: rows
-- | 1 |

-- case: an ordinary table's check may read the table itself
-- derive-only: subqueries in CHECK are Derive's
create table o (id integer primary key, x integer, constraint few check ((select count(*) from o) <= 2));
insert into o values (1, 1), (2, 2);
insert into o values (3, 3);
-- expect: error CHECK constraint failed: few
select count(*) from o;
-- expect: rows
-- | 2 |

-- case: a check reading a missing table is refused at create
-- derive-only: subqueries in CHECK are Derive's
create table o (id integer primary key, x integer, constraint listed check (x in (select x from nope)));
-- expect: error no such table: nope
select count(*) from schema() where name = 'o';
-- expect: rows
-- | 0 |

-- case: add constraint checks a table-reading check over the stored rows
-- derive-only: subqueries in CHECK are Derive's
create table q (x integer primary key);
insert into q values (1);
create table o (id integer primary key, x integer);
insert into o values (1, 1), (2, 2);
alter table o add constraint listed check (x in (select x from q));
-- expect: error CHECK constraint failed: listed
insert into q values (2);
alter table o add constraint listed check (x in (select x from q));
insert into o values (3, 3);
-- expect: error CHECK constraint failed: listed

-- ---- 5. validators follow the tables they read

-- case: a renamed parent is followed
-- derive-only: maintained tables are Derive's
alter table p rename to p2;
insert into t values (3, 'c', 3, 9);
-- expect: error FOREIGN KEY constraint failed: owner_fk — row derived into maintained table 'main.m' references a missing 'main.p2'
insert into t values (3, 'c', 3, 1);
select owner from m where k = 3;
-- expect: rows
-- | 1 |
select stale from materialized_views() where name = 'm';
-- expect: rows
-- | false |

-- case: a dropped parent leaves no parent for a non-null reference
-- derive-only: maintained tables are Derive's
drop table p;
insert into t values (3, 'c', 3, null);
insert into t values (4, 'd', 4, 1);
-- expect: error FOREIGN KEY constraint failed: owner_fk — row derived into maintained table 'main.m' references a missing 'main.p'
select k from m;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |

-- case: a re-created parent is the one read
-- derive-only: maintained tables are Derive's
drop table p;
create table p (id integer primary key);
insert into p values (5);
insert into t values (3, 'c', 3, 5);
insert into t values (4, 'd', 4, 1);
-- expect: error references a missing 'main.p'
select k, owner from m where k > 2;
-- expect: rows
-- | 3 | 5 |

-- case: a parent re-created in a transaction that fails
-- derive-only: maintained tables are Derive's
begin;
drop table p;
create table p (id integer primary key);
insert into t values (3, 'c', 3, 1);
commit;
-- expect: error references a missing 'main.p'
insert into t values (3, 'c', 3, 1);
select count(*) from m;
-- expect: rows
-- | 3 |

-- case: a renamed check target is followed
-- derive-only: subqueries in CHECK are Derive's
create table q (x integer primary key);
insert into q values (1), (2), (3);
create table r (k integer primary key, n integer, constraint listed check (n in (select q.x from q)))
  maintained as select k, n from t;
alter table q rename to q2;
select sql from schema() where name = 'r';
-- expect: rows
-- | create table main.r (k integer not null, n integer, primary key (k), constraint listed check (n in (select q2.x from q2))) using {host} maintained as select k, n from t |
insert into t values (3, 'c', 3, null);
insert into t values (4, 'd', 4, null);
-- expect: error CHECK constraint failed: listed (n in (select q2.x from q2)) — row derived into maintained table 'main.r'
select k from r;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |
select stale from materialized_views() where name = 'r';
-- expect: rows
-- | false |

-- case: a renamed table's own qualified check follows the rename
-- derive-only: this file's setup creates a maintained table (SQLite rewrites the check too)
create table o (id integer primary key, x integer, constraint pos check (o.x > 0));
alter table o rename to o2;
insert into o2 values (1, 1);
insert into o2 values (2, -1);
-- expect: error CHECK constraint failed: pos
select id from o2;
-- expect: rows
-- | 1 |

-- case: a table re-created under a view a check reads is the one read
-- derive-only: subqueries in CHECK are Derive's
create table q (x integer primary key);
insert into q values (1), (2), (3);
create view qv as select x from q;
create table r (k integer primary key, n integer, constraint listed check (n in (select x from qv)))
  maintained as select k, n from t;
drop table q;
create table q (x integer primary key);
insert into q values (3);
insert into t values (3, 'c', 3, null);
insert into t values (4, 'd', 1, null);
-- expect: error CHECK constraint failed: listed
select k from r;
-- expect: rows
-- | 1 |
-- | 2 |
-- | 3 |

-- case: a dropped check target fails the next derived row, and heals
-- derive-only: subqueries in CHECK are Derive's
create table q (x integer primary key);
insert into q values (1), (2), (3);
create table r (k integer primary key, n integer, constraint listed check (n in (select x from q)))
  maintained as select k, n from t;
drop table q;
insert into t values (3, 'c', 3, null);
-- expect: error no such table: q (read by CHECK constraint listed of maintained table 'main.r')
delete from t where k = 2;
-- expect: count 1
create table q (x integer primary key);
insert into q values (1), (3);
insert into t values (3, 'c', 3, null);
insert into t values (4, 'd', 4, null);
-- expect: error CHECK constraint failed: listed
select k, n from r;
-- expect: rows
-- | 1 | 1 |
-- | 3 | 3 |
select stale from materialized_views() where name = 'r';
-- expect: rows
-- | false |

-- ---- 6. CHECK operation masks collapse on derived rows: a check on insert and a check on
-- update both hold for every row maintenance writes, as an insert writes it (OLD all NULL); a
-- check on delete alone never applies to derivation writes, and may name old.

-- case: a check on insert holds for a row maintenance writes as an update
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer, constraint ins check on insert (n < 10)) maintained as select k, n from t;
update t set n = 50 where k = 1;
-- expect: error CHECK constraint failed: ins (n < 10) — row derived into maintained table 'main.s' violates its declared constraint
select n from s where k = 1;
-- expect: rows
-- | 1 |

-- case: a check on update holds for a row maintenance writes as an insert
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer, constraint upd check on update (n < 10)) maintained as select k, n from t;
insert into t values (3, 'c', 50, null);
-- expect: error CHECK constraint failed: upd (n < 10) — row derived into maintained table 'main.s'
select count(*) from t;
-- expect: rows
-- | 2 |

-- case: a check on update holds for the rows a create fills
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer, constraint upd check on update (n > 1)) maintained as select k, n from t;
-- expect: error CHECK constraint failed: upd (n > 1) — row derived into maintained table 'main.s'

-- case: a check on delete never applies to derivation writes
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer, constraint del check on delete (false)) maintained as select k, n from t;
insert into t values (3, 'c', 3, null);
update t set n = 9 where k = 3;
delete from t where k = 3;
-- expect: count 1
select k, n from s;
-- expect: rows
-- | 1 | 1 |
-- | 2 | 2 |

-- case: a check on delete alone may name old on a maintained table
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer, constraint del check on delete (old.n > 0)) maintained as select k, n from t;
delete from t where k = 1;
-- expect: count 1
select k from s;
-- expect: rows
-- | 2 |

-- case: a check on update naming old is refused at registration
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer, constraint grows check on update (n >= old.n)) maintained as select k, n from t;
-- expect: error cannot maintain 'main.s': CHECK constraint grows references OLD/NEW row images (old.n)

-- case: attaching a derivation refuses a plain table's check on insert naming new
-- derive-only: maintained tables are Derive's
create table s (k integer primary key, n integer, constraint ck check on insert (new.n > 0));
insert into s values (9, 9);
alter table s set maintained as select k, n from t;
-- expect: error references OLD/NEW row images
select k from s;
-- expect: rows
-- | 9 |

-- case: canonical ddl of a maintained table keeps the masks
-- derive-only: schema() is Derive's introspection function
create table s (k integer primary key, n integer, check on update (n > 0), check on delete (old.n > 0))
  maintained as select k, n from t;
select sql from schema() where name = 's';
-- expect: rows
-- | create table main.s (k integer not null, n integer, primary key (k), check on update (n > 0), check on delete (old.n > 0)) using {host} maintained as select k, n from t |
