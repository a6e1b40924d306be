import type { ConsoleCase } from '@kyc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { TransactionRecord } from '../../store/transactions.js';
import type * as store from './store.js';

/** What routes.ts lends the console's route files registered from it (sessions, CSRF, who sees which case). */
export interface ConsoleRouteHelpers {
  requireSession: (request: FastifyRequest, reply: FastifyReply) => Promise<{ session: store.ConsoleSession; user: store.ConsoleUser }>;
  requireCsrf: (request: FastifyRequest, session: store.ConsoleSession) => void;
  touch: (session: store.ConsoleSession) => Promise<unknown>;
  noStore: (reply: FastifyReply) => unknown;
  errors: Record<number, z.ZodType>;
  /** The grantor whose data a user sees: their own; a platform operator's choice (400 without one). */
  grantorOf: (user: store.ConsoleUser, asked: string | undefined) => string;
  /** The case a user may see (404 otherwise, audited; 451 blocked, 410 erased). */
  visibleCase: (request: FastifyRequest, user: store.ConsoleUser, uuidTrx: string, asked: string | undefined) => Promise<{ row: ConsoleCase; transaction: TransactionRecord; grantorId: string }>;
  abandonAfterMs: number;
}
