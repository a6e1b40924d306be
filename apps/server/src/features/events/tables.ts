/** Row types of the table of migration 0009_event_counts (features/events/migration.ts). */

/** How many lifecycle and audit events a transaction has stored: the bound of EVENTS_PER_TRANSACTION is taken here. */
export interface TransactionEventCountsTable {
  uuid_trx: string;
  events: number;
}

export interface EventsTables {
  transaction_event_counts: TransactionEventCountsTable;
}

declare module '../../store/schema.js' {
  interface Database extends EventsTables {}
}
