/**
 * The JSON bodies of the admin API as its OpenAPI document ({@code /openapi}) names them, one
 * record per body: what a request sends and a response answers, member for member. The
 * resources build and read these bodies with JSON-P; the records are their published contract,
 * from which a client can be generated.
 */
package io.derive.batch.api;
