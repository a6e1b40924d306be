import { z } from 'zod';

export { consolePaths, consoleCsrfHeader } from './console-routes.js';

export const consoleRole = z.enum(['admin', 'reviewer', 'viewer', 'operator']);
export type ConsoleRole = z.infer<typeof consoleRole>;

export const consoleSignIn = z.object({ email: z.string().trim().min(3).max(320), password: z.string().min(1).max(200) });
export const consoleTotp = z.object({ code: z.string().trim().regex(/^\d{6}$/) });

export const consoleUser = z.object({
  email: z.string(),
  role: consoleRole,
  /** Null for a platform operator. */
  grantorId: z.string().nullable(),
  grantorName: z.string().nullable(),
});
export type ConsoleUser = z.infer<typeof consoleUser>;

/** `totp`: the password was right, the 6-digit code is due. `active`: signed in. */
export const consoleSessionState = z.object({
  stage: z.enum(['totp', 'active']),
  csrfToken: z.string(),
  user: consoleUser.optional(),
});
export type ConsoleSessionState = z.infer<typeof consoleSessionState>;

export const consoleCaseStatus = z.enum(['in_progress', 'abandoned', 'finished', 'GREEN', 'YELLOW', 'RED']);
export type ConsoleCaseStatus = z.infer<typeof consoleCaseStatus>;

export const consoleCaseQuery = z.object({
  /** Platform operators only: the grantor whose cases to list. */
  grantorId: z.string().max(100).optional(),
  status: consoleCaseStatus.optional(),
  /** YYYY-MM-DD, inclusive, in UTC. */
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  /** Folio (prefix of the transaction id), CURP or name. */
  q: z.string().max(200).optional(),
  cursor: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type ConsoleCaseQuery = z.input<typeof consoleCaseQuery>;

export const consoleCase = z.object({
  uuidTrx: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: consoleCaseStatus,
  step: z.string().nullable(),
  holderName: z.string().nullable(),
});
export type ConsoleCase = z.infer<typeof consoleCase>;

export const consoleCasePage = z.object({ cases: z.array(consoleCase), nextCursor: z.string().nullable() });
export type ConsoleCasePage = z.infer<typeof consoleCasePage>;

export const consoleGrantors = z.object({ grantors: z.array(z.object({ id: z.string(), name: z.string() })) });
export type ConsoleGrantors = z.infer<typeof consoleGrantors>;

export const consoleError = z.object({ status: z.number(), message: z.string(), message_client: z.string().optional() });
