import { limits } from './limits.js';

/**
 * Spec §5 clause button on the results page: the first value is the DNI (at least 3) in the DNI
 * variant, else the CURP (16 to 18); the second, the name, needs at least 10. Lengths are trimmed.
 */
export function clauseButtonEnabled(first: string, second: string, dniVariant: boolean): boolean {
  const firstLength = first.trim().length;
  const firstOk = dniVariant ? firstLength >= limits.dniMinLength : firstLength >= limits.frontCurpMinLength && firstLength <= limits.curpLength;
  return firstOk && second.trim().length >= limits.clauseSecondMinLength;
}
