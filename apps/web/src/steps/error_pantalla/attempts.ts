import type { IdSide, IntentsData } from '../../session/idCapture';

/**
 * Attempts left on a side, from the local mirror (intentsData) and the grantor's limits, for display only:
 * the server enforces the limit. null when nothing has been counted yet (nothing worth saying).
 */
export function attemptsLeft(side: IdSide, intents: IntentsData, frontLimit: number, backLimit: number): number | null {
  const used = side === 'front' ? intents.id_frontal : intents.id_reverso;
  if (used === 0) return null;
  return Math.max(0, (side === 'front' ? frontLimit : backLimit) - used);
}
