create table t (k integer primary key, v text not null, n integer, r real);
create table u (a integer, b text, primary key (a, b));
insert into t values (1, 'a', 10, 1.5), (2, 'b', null, null), (3, 'c', 30, 3.0);
insert into u values (1, 'x'), (2, 'y');
create materialized view mv as select k, v from t where n > 5;
create materialized view mvg as select n, count(*) as c from t group by n;
