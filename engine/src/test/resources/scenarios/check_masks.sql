-- CHECK with operation masks (semantics §1, seed mv-constraints.md "CHECK op-mask collapse"):
-- check on insert|update|delete, … (…) applies only to the writes it names; without a list a
-- check applies to insert and update. On a plain table a masked check may name old. and new.:
-- an insert's OLD is all NULL, a delete's NEW is all NULL (the deleted row is OLD), an update has
-- both. Unqualified columns name NEW, except in a check on delete alone, where they name OLD.
create table acct (id integer primary key, balance integer not null, status text,
                   constraint opening check on insert (balance >= 0),
                   constraint withdrawal_limit check on update (new.balance >= old.balance - 10),
                   constraint closed_only check on delete (status = 'closed'));
insert into acct values (1, 10, 'open'), (2, 0, 'closed');

-- case: a check on insert refuses the insert
-- derive-only: check on … is Derive's (the constraints seed)
insert into acct values (3, -5, 'open');
-- expect: error CHECK constraint failed: opening
select count(*) from acct;
-- expect: rows
-- | 2 |

-- case: a check on insert does not apply to an update
-- derive-only: check on … is Derive's (the constraints seed)
update acct set balance = -5 where id = 2;
-- expect: count 1
select balance from acct where id = 2;
-- expect: rows
-- | -5 |

-- case: a check on update compares the new image with the old
-- derive-only: check on … is Derive's (the constraints seed)
update acct set balance = -5 where id = 1;
-- expect: error CHECK constraint failed: withdrawal_limit
update acct set balance = 3 where id = 1;
-- expect: count 1
select balance from acct where id = 1;
-- expect: rows
-- | 3 |

-- case: a check on delete refuses deleting a row it fails, with the deleted row as OLD
-- derive-only: check on … is Derive's (the constraints seed)
delete from acct where id = 1;
-- expect: error CHECK constraint failed: closed_only
select id from acct;
-- expect: rows
-- | 1 |
-- | 2 |

-- case: a check on delete lets a row it passes go
-- derive-only: check on … is Derive's (the constraints seed)
delete from acct where id = 2;
-- expect: count 1
select id from acct;
-- expect: rows
-- | 1 |

-- case: a failing delete of several rows deletes none of them
-- derive-only: check on … is Derive's (the constraints seed)
delete from acct;
-- expect: error CHECK constraint failed: closed_only
select count(*) from acct;
-- expect: rows
-- | 2 |

-- case: a check on delete does not apply to an insert or an update
-- derive-only: check on … is Derive's (the constraints seed)
insert into acct values (3, 1, 'open');
update acct set status = 'open' where id = 2;
select id, status from acct;
-- expect: rows
-- | 1 | open |
-- | 2 | open |
-- | 3 | open |

-- case: an insert sees an all-NULL old image
-- derive-only: check on … is Derive's (the constraints seed)
create table log (id integer primary key, v integer, check on insert (old.v is null and new.v = v));
insert into log values (1, 5);
-- expect: count 1

-- case: a delete sees an all-NULL new image
-- derive-only: check on … is Derive's (the constraints seed)
create table log (id integer primary key, v integer, check on delete (new.id is null and old.id = id));
insert into log values (1, 5);
delete from log;
-- expect: count 1

-- case: an unqualified column of a check on insert and delete names new, which a delete has none of
-- derive-only: check on … is Derive's (the constraints seed)
create table log (id integer primary key, v integer, check on insert, delete (v > 0));
insert into log values (1, 5);
delete from log;
-- expect: count 1
insert into log values (2, 0);
-- expect: error CHECK constraint failed: v > 0

-- case: a check on update and delete holds on both
-- derive-only: check on … is Derive's (the constraints seed)
create table log (id integer primary key, v integer, constraint frozen check on update, delete (old.v is null));
insert into log values (1, 5), (2, null);
update log set v = 6 where id = 1;
-- expect: error CHECK constraint failed: frozen
delete from log where id = 1;
-- expect: error CHECK constraint failed: frozen
delete from log where id = 2;
-- expect: count 1

-- case: a replace that evicts a row is a delete of it
-- derive-only: check on … is Derive's (the constraints seed)
insert or replace into acct values (1, 20, 'open');
-- expect: error CHECK constraint failed: closed_only
select balance from acct where id = 1;
-- expect: rows
-- | 10 |

-- case: a cascading delete is a delete of the child row
-- derive-only: check on … is Derive's (the constraints seed)
create table card (id integer primary key, acct integer references acct (id) on delete cascade,
                   constraint kept check on delete (old.id <> 7));
insert into card values (7, 2);
delete from acct where id = 2;
-- expect: error CHECK constraint failed: kept
select count(*) from card;
-- expect: rows
-- | 1 |

-- case: an upsert's update is an update
-- derive-only: check on … is Derive's (the constraints seed)
insert into acct values (1, 0, 'open') on conflict (id) do update set balance = -20;
-- expect: error CHECK constraint failed: withdrawal_limit

-- case: or ignore skips a row a check on update fails
-- derive-only: check on … is Derive's (the constraints seed)
update or ignore acct set balance = balance - id * 8;
-- expect: count 1
select id, balance from acct;
-- expect: rows
-- | 1 | 2 |
-- | 2 | 0 |

-- case: a check added to a table with rows holds them as inserts would
-- derive-only: check on … is Derive's (the constraints seed)
alter table acct add constraint rich check on insert (balance > 5);
-- expect: error CHECK constraint failed: rich
alter table acct add constraint grows check on update (new.balance > old.balance);
update acct set balance = 1 where id = 1;
-- expect: error CHECK constraint failed: grows

-- case: a check on delete alone added to a table with rows checks none of them
-- derive-only: check on … is Derive's (the constraints seed)
alter table acct add constraint never check on delete (false);
delete from acct where id = 2;
-- expect: error CHECK constraint failed: never

-- case: canonical ddl keeps the masks, and leaves insert and update unsaid
-- derive-only: schema() is Derive's introspection function
create table m (k integer primary key, v integer, check on insert, update (v > 0), check on update, delete (old.v <> 1),
                check on delete, insert (v <> 2));
select sql from schema() where name = 'm';
-- expect: rows
-- | create table main.m (k integer not null, v integer, primary key (k), check (v > 0), check on update, delete (old.v <> 1), check on insert, delete (v <> 2)) using {host} |

-- case: a check naming an unknown operation is refused at its place
-- derive-only: check on … is Derive's (the constraints seed)
create table m (k integer primary key, v integer, check on upsert (v > 0));
-- expect: error expected 'insert', 'update' or 'delete'

-- case: a check naming an operation twice is refused
-- derive-only: check on … is Derive's (the constraints seed)
create table m (k integer primary key, v integer, check on insert, insert (v > 0));
-- expect: error CHECK names insert twice

-- case: an image column that does not exist is named at create
-- derive-only: check on … is Derive's (the constraints seed)
create table m (k integer primary key, v integer, check on update (new.w > 0));
-- expect: error no such column: new.w

-- case: a check reading tables may not name a row image
-- derive-only: check on … is Derive's (the constraints seed)
create table m (k integer primary key, v integer, check on update (new.v in (select id from acct)));
-- expect: error reads tables, so it is checked at commit, where a row has no OLD/NEW row images

-- case: a check reading tables may not apply to delete
-- derive-only: check on … is Derive's (the constraints seed)
create table m (k integer primary key, v integer, check on delete (v in (select id from acct)));
-- expect: error cannot apply to delete

-- case: a check reading tables on update alone is checked at commit for updated rows only
-- derive-only: check on … is Derive's (the constraints seed)
create table m (k integer primary key, v integer, constraint known check on update (v in (select id from acct)));
insert into m values (1, 99);
update m set v = 98;
-- expect: error CHECK constraint failed: known
update m set v = 2;
select v from m;
-- expect: rows
-- | 2 |
