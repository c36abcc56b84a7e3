-- schema() and table_info('t'): introspection of the catalog (semantics §1).
create table t (k integer primary key, v text not null default 'x', n real);

-- case: schema lists a table with canonical ddl
-- derive-only: schema() is Derive's introspection function
select type, schema, name, sql from schema();
-- expect: rows
-- | table | main | t | create table main.t (k integer not null, v text not null default 'x', n real, primary key (k)) using {host} |

-- case: schema lists views after tables
-- derive-only: schema() is Derive's introspection function
create view w as select k from t;
select type, name from schema();
-- expect: rows (ordered)
-- | table | t |
-- | view  | w |

-- case: schema shows an alter at once
-- derive-only: schema() is Derive's introspection function
alter table t drop column n;
select sql from schema();
-- expect: rows
-- | create table main.t (k integer not null, v text not null default 'x', primary key (k)) using {host} |

-- case: table info describes columns as sqlite does
-- derive-only: the table_info function form with Derive's lower-case type names
select cid, name, type, "notnull", pk from table_info('t');
-- expect: rows (ordered)
-- | 0 | k | integer | 1 | 1 |
-- | 1 | v | text    | 1 | 0 |
-- | 2 | n | real    | 0 | 0 |

-- case: table info shows a default as sql text
-- derive-only: the table_info function form
alter table t add column r real default 1.5;
select dflt_value from table_info('t') where name = 'r';
-- expect: rows
-- | 1.5 |

-- case: table info of a bag leaves the rowid out
-- derive-only: the table_info function form with Derive's lower-case type names
create table b (x integer, y);
select name, type, pk from table_info('b');
-- expect: rows (ordered)
-- | x | integer | 0 |
-- | y | ''      | 0 |

-- case: table info of an unknown table fails
-- derive-only: the table_info function form
select * from table_info('nope');
-- expect: error no such table: nope

-- case: schema is transactional
-- derive-only: schema() is Derive's introspection function
begin;
create table u (k integer primary key);
rollback;
select name from schema();
-- expect: rows
-- | t |

-- case: canonical ddl keeps the name of a unique constraint
-- derive-only: schema()
create table u (k integer primary key, a integer, b text, constraint one_a unique (a), unique (b));
select sql from schema() where name = 'u';
-- expect: rows
-- | create table main.u (k integer not null, a integer, b text, primary key (k), constraint one_a unique (a), unique (b)) using {host} |
