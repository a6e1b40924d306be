import { describe, expect, it } from 'vitest';
import { decideProofAnswer, decideProofError, proofForm } from './proof';

const reading = { leido: true, coincideNombre: null, vigente: null, intentosRestantes: 3 };

describe('proof upload answers', () => {
  it('goes on with a legible reading, asks again or ends with an unreadable one', () => {
    expect(decideProofAnswer(reading)).toEqual({ kind: 'read', lectura: reading });
    expect(decideProofAnswer({ ...reading, leido: false, intentosRestantes: 2 })).toEqual({ kind: 'unreadable', attemptsLeft: 2 });
    expect(decideProofAnswer({ ...reading, leido: false, intentosRestantes: 0 })).toEqual({ kind: 'exhausted' });
  });
  it('maps failures: 429 final screen, no response network block, others capture again', () => {
    expect(decideProofError(429).kind).toBe('exhausted');
    expect(decideProofError(null).kind).toBe('network');
    expect(decideProofError(400).kind).toBe('unreadable');
  });
  it('names the folder grantor id/user id/domicilio', () => {
    const form = proofForm({ idOtorgante: 'g1', uuidUser: 'u1', image: new Blob(['x']) });
    expect(form.get('folder')).toBe('g1/u1/domicilio');
    expect(form.get('uuid')).toBe('u1');
  });
});
