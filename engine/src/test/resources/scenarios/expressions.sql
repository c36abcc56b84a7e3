-- Scalar expressions with SQLite semantics: arithmetic, NULL logic, concatenation, bit operators.

-- case: integer division truncates toward zero
select 7 / 2, -7 / 2, 7 / -2, 1 / 3;
-- expect: rows
-- | 3 | -3 | -3 | 0 |

-- case: real division
select 7.0 / 2, 7 / 2.0, 1 / 4.0;
-- expect: rows
-- | 3.5 | 3.5 | 0.25 |

-- case: remainder keeps the sign of the dividend
select 7 % 3, -7 % 3, 7 % -3, -7 % -3;
-- expect: rows
-- | 1 | -1 | 1 | -1 |

-- case: remainder of reals
select 7.5 % 2;
-- expect: rows
-- | 1.0 |

-- case: division by zero is null
select 1 / 0, 1 % 0, 1.5 / 0, 0 / 0;
-- expect: rows
-- | NULL | NULL | NULL | NULL |

-- case: arithmetic precedence
select 2 + 3 * 4, (2 + 3) * 4, 10 - 2 - 3, 2 * 3 % 4;
-- expect: rows
-- | 14 | 20 | 5 | 2 |

-- case: unary minus and plus
select -(3), - -3, +4, -(-2 * 3);
-- expect: rows
-- | -3 | 3 | 4 | 6 |

-- case: integer overflow becomes real
select 9223372036854775807 + 1;
-- expect: rows
-- | 9.223372036854776E18 |

-- case: integer times real is real
select 2 * 1.5, 3 + 0.0, typeof(3 + 0.0);
-- expect: rows
-- | 3.0 | 3.0 | real |

-- case: null in arithmetic yields null
select 1 + null, null * 2, null / 0, -null;
-- expect: rows
-- | NULL | NULL | NULL | NULL |

-- case: comparison with null yields null
select 1 = null, null = null, null <> 1, null < 1;
-- expect: rows
-- | NULL | NULL | NULL | NULL |

-- case: and with null
select null and 0, null and 1, 0 and null, null and null;
-- expect: rows
-- | 0 | NULL | 0 | NULL |

-- case: or with null
select null or 1, null or 0, 1 or null, null or null;
-- expect: rows
-- | 1 | NULL | 1 | NULL |

-- case: not null is null
select not null, not 0, not 1, not 5;
-- expect: rows
-- | NULL | 1 | 0 | 0 |

-- case: is null and is not null
select null is null, 1 is null, null is not null, 0 is not null;
-- expect: rows
-- | 1 | 0 | 0 | 1 |

-- case: is compares nulls as equal
select null is null, 1 is 1, 1 is null, 1 is not 2, null is not null;
-- expect: rows
-- | 1 | 1 | 0 | 1 | 0 |

-- case: is distinct from
select 1 is distinct from null, null is distinct from null, 2 is not distinct from 2;
-- expect: rows
-- | 1 | 0 | 1 |

-- case: comparisons produce 0 and 1
select 1 < 2, 2 < 1, 2 <= 2, 3 >= 4, 1 == 1, 1 != 1, 1 <> 2;
-- expect: rows
-- | 1 | 0 | 1 | 0 | 1 | 0 | 1 |

-- case: integer and real compare by value
select 1 = 1.0, 2 > 1.5, 3 < 2.9;
-- expect: rows
-- | 1 | 1 | 0 |

-- case: text comparisons are binary
select 'a' < 'b', 'B' < 'a', 'abc' = 'abc', 'abc' < 'abd', '' < 'a';
-- expect: rows
-- | 1 | 1 | 1 | 1 | 1 |

-- case: concatenation
select 'a' || 'b', 'x' || 1, 1 || 2, 'v' || 1.5;
-- expect: rows
-- | ab | x1 | 12 | v1.5 |

-- case: concatenation with null is null
select 'a' || null, null || 'b';
-- expect: rows
-- | NULL | NULL |

-- case: concatenation chain
select 'a' || 'b' || 'c' || 'd';
-- expect: rows
-- | abcd |

-- case: bit operators
select 5 & 3, 5 | 3, ~5, 1 << 4, 256 >> 4, -8 >> 1;
-- expect: rows
-- | 1 | 7 | -6 | 16 | 16 | -4 |

-- case: bit operators with null
select 5 & null, null << 1, ~null;
-- expect: rows
-- | NULL | NULL | NULL |

-- case: text operand in arithmetic uses its numeric prefix
select '3' + 4, '2.5' * 2, 'x' + 1, '12abc' + 0, '' + 1;
-- expect: rows
-- | 7 | 5.0 | 1 | 12 | 1 |

-- case: hexadecimal and exponent literals
select 0x10, 1e3, 2.5e-1, .5;
-- expect: rows
-- | 16 | 1000.0 | 0.25 | 0.5 |

-- case: string literal with doubled quote
select 'don''t', '';
-- expect: rows
-- | don't | '' |

-- case: expressions over columns
create table t (k integer primary key, a integer, b integer);
insert into t values (1, 10, 3), (2, null, 4), (3, -7, 2);
select k, a / b, a % b, a * b + 1, a - b from t order by k;
-- expect: rows (ordered)
-- | 1 | 3    | 1    | 31   | 7    |
-- | 2 | NULL | NULL | NULL | NULL |
-- | 3 | -3   | -1   | -13  | -9   |

-- case: boolean literals are one and zero
select true, false, true + 1;
-- expect: rows
-- | 1 | 0 | 2 |

-- case: nested parentheses
select ((((1 + 2)))) * (((3)));
-- expect: rows
-- | 9 |

-- case: comparison chains parse left to right
select 1 < 2 < 3, 3 > 2 > 1;
-- expect: rows
-- | 1 | 0 |

-- case: not binds looser than comparison
select not 1 = 2, not (1 = 1);
-- expect: rows
-- | 1 | 0 |

-- case: and binds tighter than or
select 1 or 0 and 0, (1 or 0) and 0;
-- expect: rows
-- | 1 | 0 |

-- case: unknown function fails
select nosuchfn(1);
-- expect: error no such function: nosuchfn

-- case: positional parameters are not bound fails or nulls
select 1 + 1 as two;
-- expect: rows
-- | 2 |
-- expect: columns two
