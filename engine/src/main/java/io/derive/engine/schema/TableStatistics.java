package io.derive.engine.schema;

/**
 * What {@code analyze} collected about one table. It lives in the catalog, so it commits and rolls
 * back with the transaction that ran {@code analyze}, like DDL.
 *
 * @param rowCount the number of rows the table held for that transaction
 */
public record TableStatistics(long rowCount) {
}
