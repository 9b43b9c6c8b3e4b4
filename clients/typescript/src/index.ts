export { type ClientOptions, createClient, type RetryEvent, type Taxcert, TaxcertClient } from './client.ts';
export { type ErrorCode, isApiError, TaxcertApiError, TaxcertNetworkError } from './errors.ts';
export { OPERATIONS } from './operations.ts';
export type { RetryOptions } from './retry.ts';
export type { components, operations, paths } from './schema.ts';
export type { AsOptions, ListOperationId, OperationId, OperationInput, OperationResult, RequestOptions, RowOf } from './types.ts';
