import type { operations } from './schema.ts';

/** The call and answer types of each operation, read from the generated `operations`. */

export type OperationId = keyof operations;

type Parameters_<K extends OperationId> = operations[K]['parameters'];
type PathOf<K extends OperationId> = Exclude<Parameters_<K>['path'], undefined>;
type QueryOf<K extends OperationId> = Exclude<Parameters_<K>['query'], undefined>;
type RequestBody<K extends OperationId> = Exclude<operations[K]['requestBody'], undefined>;
type BodyOf<K extends OperationId> = [RequestBody<K>] extends [never]
  ? never
  : RequestBody<K> extends { content: { 'application/json': infer B } }
    ? B
    : never;

/** A field the operation takes: required when the document requires it, absent when it has none. */
type Field<Name extends string, T, Required extends boolean> = [T] extends [never]
  ? { [P in Name]?: never }
  : Required extends true
    ? { [P in Name]: T }
    : { [P in Name]?: T };

type HasRequired<T> = [T] extends [never] ? false : Record<never, never> extends T ? false : true;

/** What a method takes: `path` and `body` when the operation has them, `query` always optional unless required. */
export type OperationInput<K extends OperationId> = Field<'path', PathOf<K>, HasRequired<PathOf<K>>> &
  Field<'query', QueryOf<K>, HasRequired<QueryOf<K>>> &
  Field<'body', BodyOf<K>, [BodyOf<K>] extends [never] ? false : true>;

/** A JSON answer's body; an answer of another type (a calendar, GeoJSON only) arrives as text. */
type Json<R> = R extends { content: infer C } ? ('application/json' extends keyof C ? C['application/json' & keyof C] : string) : undefined;
type Responses<K extends OperationId> = operations[K]['responses'];

/** The JSON body of the operation's success answers. */
export type OperationResult<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends 200 | 201 | 202 ? Json<Responses<K>[S]> : never;
}[keyof Responses<K>];

/** Operations whose answer is a page of rows with pagination. */
export type ListOperationId = {
  [K in OperationId]: OperationResult<K> extends { data: unknown[]; pagination: unknown } ? K : never;
}[OperationId];

/** One row of a list operation. */
export type RowOf<K extends ListOperationId> = OperationResult<K> extends { data: (infer R)[] } ? R : never;

/** Per-call options beside the operation's own parameters. */
export interface RequestOptions {
  /** A write's Idempotency-Key; without one the client makes a UUID, kept across its retries. */
  idempotencyKey?: string;
  /** Cancels the call (every attempt and every wait between them). */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
}

/** `as: 'text'` answers the body as text (a list asked for with format=csv), `as: 'bytes'` as bytes (a bulk file). */
export interface AsOptions extends RequestOptions {
  as: 'text' | 'bytes';
}

type Args<K extends OperationId, O> =
  Record<never, never> extends OperationInput<K> ? [input?: OperationInput<K>, options?: O] : [input: OperationInput<K>, options?: O];
type ArgsAs<K extends OperationId, O> =
  Record<never, never> extends OperationInput<K>
    ? [input: OperationInput<K> | undefined, options: O]
    : [input: OperationInput<K>, options: O];

/** One method per operation, named by its operationId. */
export type OperationMethods = {
  [K in OperationId]: {
    (...args: Args<K, RequestOptions & { as?: 'json' }>): Promise<OperationResult<K>>;
    (...args: ArgsAs<K, AsOptions & { as: 'text' }>): Promise<string>;
    (...args: ArgsAs<K, AsOptions & { as: 'bytes' }>): Promise<Uint8Array>;
  };
};
