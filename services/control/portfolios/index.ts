/**
 * The control plane's portfolios: a client's held tax certificates (docs/portfolios.md).
 * The API's writes and the positions read both import from here.
 */
export * from './portfolios.ts';
export * from './positions.ts';
export * from './records.ts';
export * from './calendars.ts';
export * from './holdings.ts';
export * from './deadline-alerts.ts';
