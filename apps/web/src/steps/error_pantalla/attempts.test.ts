import { describe, expect, it } from 'vitest';
import { attemptsLeft } from './attempts';

const intents = (front: number, back: number) => ({ id_frontal: front, id_reverso: back, id_frontal_tolerado: false });

describe('attempts left (display mirror of INTENTOS_ID_FRONTAL / INTENTOS_ID_REVERSO)', () => {
  it('counts down per side', () => {
    expect(attemptsLeft('front', intents(1, 0), 3, 3)).toBe(2);
    expect(attemptsLeft('back', intents(1, 2), 3, 5)).toBe(3);
  });

  it('says nothing before the first counted attempt and never goes below zero', () => {
    expect(attemptsLeft('front', intents(0, 2), 3, 3)).toBeNull();
    expect(attemptsLeft('back', intents(0, 7), 3, 3)).toBe(0);
  });
});
