package io.derive.engine.scenario.differential;

/** The query features the differential generator exercises; counts are kept per feature. */
public enum Feature {
    SINGLE_TABLE,
    FILTER,
    ORDER_LIMIT,
    EXPRESSIONS,
    DISTINCT,
    INNER_JOIN_2,
    INNER_JOIN_3,
    OUTER_JOIN,
    SUBQUERY,
    CORRELATED_SUBQUERY,
    AGGREGATE,
    GROUP_BY,
    SET_OPERATION,
    DERIVED_TABLE,
    CTE,
    PREDICATE_PUSHDOWN
}
