/** Florida's calendar day is the domain's: the sale-status job of the change feed judges sales by it too. */
export { floridaToday } from '../../../domain/florida-today.ts';
