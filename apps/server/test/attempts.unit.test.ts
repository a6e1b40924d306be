import { describe, expect, it } from 'vitest';
import { attemptsExhausted, attemptsLeft, attemptsState, attemptSteps, locksAfter, maySpend, refusalReason } from '../src/domain/attempts.js';

describe('the attempts rule (domain/attempts.ts)', () => {
  it('counts attempts left', () => {
    expect(attemptsLeft(1, 3)).toBe(2);
    expect(attemptsLeft(5, 3)).toBe(0);
    expect(attemptsExhausted(2, 3)).toBe(false);
    expect(attemptsExhausted(3, 3)).toBe(true);
  });

  it('spends while the counted and the ones being decided are under the limit', () => {
    expect(maySpend(0, 0, 3)).toBe(true);
    expect(maySpend(1, 1, 3)).toBe(true);
    expect(maySpend(1, 2, 3)).toBe(false);
    expect(maySpend(3, 0, 3)).toBe(false);
    expect(maySpend(0, 0, 0)).toBe(false);
  });

  it('tells a used-up counter from one whose last attempts are being decided', () => {
    expect(refusalReason(3, 3)).toBe('exhausted');
    expect(refusalReason(4, 3)).toBe('exhausted');
    expect(refusalReason(2, 3)).toBe('in_use');
    expect(refusalReason(0, 3)).toBe('in_use');
  });

  it('locks when a counted outcome leaves none, or on an outcome that uses them all', () => {
    expect(locksAfter('count', 2, 3)).toBe(false);
    expect(locksAfter('count', 3, 3)).toBe(true);
    expect(locksAfter('exhaust', 1, 3)).toBe(true);
    // A given-back attempt never locks, even with the counter at the limit from elsewhere.
    expect(locksAfter('none', 3, 3)).toBe(false);
  });

  it('refuses a capture while locked, and once its attempts are used up, also after the lock', () => {
    const now = new Date('2025-01-01T10:00:00.000Z');
    const later = '2025-01-01T10:30:00.000Z';
    const earlier = '2025-01-01T09:30:00.000Z';
    expect(attemptsState(later, now)).toBe('locked');
    expect(attemptsState(earlier, now)).toBe('open');
    expect(attemptsState(null, now, { count: 2, limit: 3 })).toBe('open');
    expect(attemptsState(earlier, now, { count: 3, limit: 3 })).toBe('exhausted');
    expect(attemptsState(later, now, { count: 3, limit: 3 })).toBe('locked');
  });

  it('names the steps the spec limits; the proof shares the front limit', () => {
    expect(attemptSteps.idFront).toEqual({ step: 'id_frontal', limitParam: 'INTENTOS_ID_FRONTAL' });
    expect(attemptSteps.proof).toEqual({ step: 'comprobante', limitParam: 'INTENTOS_ID_FRONTAL' });
  });
});
