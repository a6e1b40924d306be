import type { Config } from '../../config.js';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { readStoredParams, type GrantorStore } from '../../store/grantors.js';
import { issueCode, motionPromptCount } from './codes.js';
import { insertCode } from './codes-store.js';

/**
 * A new code for the transaction, with its digit schedule (the test-only fixed one when configured) and the grantor's
 * motion prompts, stored encrypted: what the journey's `/v1/otp` and `/v1/videotoken/code`, the result link's and a
 * redo link's code routes all answer.
 */
export async function issueStoredCode(deps: GrantorStore & { config: Pick<Config, 'videoTokenTestSchedule'>; cipher: DataCipher }, to: { grantorId: string; uuidTrx: string; origin: 'otp' | 'code' }) {
  const issued = issueCode(new Date(), { fixedSchedule: deps.config.videoTokenTestSchedule, prompts: motionPromptCount(await readStoredParams(deps, to.grantorId)) });
  await insertCode(deps.db, deps.cipher, { uuidTrx: to.uuidTrx, grantorId: to.grantorId, ...issued, origin: to.origin });
  return issued;
}
