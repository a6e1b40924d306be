/** Tables of migration 0029_redo_requests (features/redo/migration.ts). Timestamps are ISO-8601 UTC text. */

/**
 * A reviewer's request that the customer redo one step (review decision `redo`): pending until the customer sends
 * the step again through the link (completed), or a final decision is taken first (cancelled). The link's
 * credential names this row (its `jti`), so a used or cancelled link is refused on every node.
 */
export interface RedoRequestsTable {
  id: string;
  uuid_trx: string;
  uuid_user: string;
  grantor_id: string;
  /** The console user who asked. */
  user_id: string;
  /** consoleRedoSteps: id | proof */
  step: string;
  reason: string;
  /** The reviewer's note, encrypted with the data key (never sent to the customer nor in the webhook). */
  note_enc: string;
  /** JSON array of consoleRedoChannels. */
  channels: string;
  state: 'pending' | 'completed' | 'cancelled';
  expires_at: string;
  created_at: string;
  completed_at: string | null;
}

export interface RedoTables {
  redo_requests: RedoRequestsTable;
}

declare module '../../store/schema.js' {
  interface Database extends RedoTables {}
}
