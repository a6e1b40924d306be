import { grantorParamDefaults, grantorParamIds } from '@kyc/contracts';
import { describe, expect, it } from 'vitest';
import { effectiveParams, ownerParams, paramValueProblem, publicParams } from '../src/domain/grantor-params.js';
import { decideTransaction, isLocked, lockUntilAfter, transactionMessages } from '../src/domain/transactions.js';

const grantor = { id: 'g-1', name: 'Financiera Uno' };

describe('decideTransaction', () => {
  const request = { grantorId: 'g-1', uuidUser: 'u-1' };
  it('creates an unknown transaction and resumes its own', () => {
    expect(decideTransaction(undefined, request)).toEqual({ kind: 'create' });
    expect(decideTransaction({ grantorId: 'g-1', uuidUser: 'u-1' }, request)).toEqual({ kind: 'resume' });
  });
  it("refuses another grantor's or another user's transaction", () => {
    expect(decideTransaction({ grantorId: 'g-2', uuidUser: 'u-1' }, request)).toEqual({
      kind: 'refuse',
      reason: 'transaction_other_owner',
      message: transactionMessages.otherGrantor,
    });
    expect(decideTransaction({ grantorId: 'g-1', uuidUser: 'u-2' }, request)).toMatchObject({ kind: 'refuse', reason: 'transaction_other_owner' });
  });
});

describe('attempts and lockout', () => {
  const now = new Date('2025-01-01T10:00:00.000Z');
  it('locks for one hour', () => {
    const until = lockUntilAfter(now);
    expect(until).toBe('2025-01-01T11:00:00.000Z');
    expect(isLocked(until, now)).toBe(true);
    expect(isLocked(until, new Date('2025-01-01T11:00:00.000Z'))).toBe(false);
    expect(isLocked(null, now)).toBe(false);
  });
});

describe('grantor parameters', () => {
  it('lists every §3 parameter in order with defaults and derived values', () => {
    const list = effectiveParams(grantor, {});
    expect(list.map((p) => p.idCampo)).toEqual(grantorParamIds.filter((id) => id !== 'APIKEY'));
    const value = (id: string) => list.find((p) => p.idCampo === id)?.valor;
    expect(value('ID_OTORGANTE')).toBe('g-1');
    expect(value('NOMBRE_CORTO')).toBe('Financiera Uno');
    expect(value('RAZON_SOCIAL')).toBe('Financiera Uno');
    expect(value('INTENTOS_ID_FRONTAL')).toBe(grantorParamDefaults.INTENTOS_ID_FRONTAL);
  });

  it('puts stored values over defaults, never trusts stored APIKEY or ID_OTORGANTE, appends extras', () => {
    const stored = { COLOR_PRIMARIO: '#000000', APIKEY: 'leaked', ID_OTORGANTE: 'spoofed', ZETA: 'z', ALFA: 'a' };
    const list = ownerParams(grantor, stored, 'caller-key');
    const value = (id: string) => list.find((p) => p.idCampo === id)?.valor;
    expect(value('COLOR_PRIMARIO')).toBe('#000000');
    expect(value('APIKEY')).toBe('caller-key');
    expect(value('ID_OTORGANTE')).toBe('g-1');
    expect(list.slice(-2).map((p) => p.idCampo)).toEqual(['ALFA', 'ZETA']);
    expect(publicParams(grantor, stored).some((p) => p.idCampo === 'APIKEY')).toBe(false);
  });

  it('checks values an operator sets', () => {
    expect(paramValueProblem('COLOR_PRIMARIO', '#0B4F8A')).toBeNull();
    expect(paramValueProblem('COLOR_PRIMARIO', 'red')).toContain('colour');
    expect(paramValueProblem('INTENTOS_VIDEO_TOKEN', '0')).toContain('whole number');
    expect(paramValueProblem('ENABLE_RENAPO', 'FALSO')).toBeNull();
    expect(paramValueProblem('ENABLE_RENAPO', 'no')).toContain('VERDADERO');
    expect(paramValueProblem('LOGO_OTORGANTE', 'data:image/png;base64,AAAA')).toBeNull();
    expect(paramValueProblem('LOGO_OTORGANTE', 'https://cdn.example/logo.png')).toContain('CSP');
    expect(paramValueProblem('EMAIL_CONTACTO_PRINCIPAL', 'contacto@demo.example')).toBeNull();
    expect(paramValueProblem('EMAIL_CONTACTO_PRINCIPAL', 'contacto')).toContain('e-mail');
    expect(paramValueProblem('MODO_VIDEO_TOKEN', 'tiempo_real')).toBeNull();
    expect(paramValueProblem('MOVIMIENTOS_VIDEO_TOKEN', '2')).toBeNull();
    expect(paramValueProblem('MOVIMIENTOS_VIDEO_TOKEN', '3')).toContain('0, 1 or 2');
    expect(paramValueProblem('APIKEY', 'x')).toContain('rotate-key');
    expect(paramValueProblem('ID_OTORGANTE', 'x')).not.toBeNull();
    expect(paramValueProblem('lower', 'x')).not.toBeNull();
    expect(paramValueProblem('TEL_CONTACTO_PRINCIPAL', 'x'.repeat(20_001))).toContain('longer');
  });
});
