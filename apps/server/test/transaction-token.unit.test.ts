import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createTransactionTokens } from '../src/crypto/transaction-token.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'transaction-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const claims = { uuidTrx: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d', uuidUser: '3f0e4c2a-1b2c-4d5e-8f90-1234567890ab', grantorId: 'g-1' };
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

describe('the per-transaction token lifetime (TRANSACTION_TOKEN_HOURS)', () => {
  it('lasts 12 hours by default', async () => {
    const tokens = createTransactionTokens(loadConfig({ DATA_DIR: path.join(dir, 'default') }, false));
    expect(await tokens.verify(await tokens.issue(claims, hoursAgo(11.9)))).toEqual(claims);
    expect(await tokens.verify(await tokens.issue(claims, hoursAgo(12.1)))).toEqual({ refused: 'expired' });
  });

  it('follows the setting, within 1-72 hours', async () => {
    const tokens = createTransactionTokens(loadConfig({ DATA_DIR: path.join(dir, 'two'), TRANSACTION_TOKEN_HOURS: '2' }, false));
    expect(await tokens.verify(await tokens.issue(claims, hoursAgo(1.9)))).toEqual(claims);
    expect(await tokens.verify(await tokens.issue(claims, hoursAgo(2.1)))).toEqual({ refused: 'expired' });
    expect(() => loadConfig({ DATA_DIR: dir, TRANSACTION_TOKEN_HOURS: '0' }, false)).toThrow(/TRANSACTION_TOKEN_HOURS/);
    expect(() => loadConfig({ DATA_DIR: dir, TRANSACTION_TOKEN_HOURS: '73' }, false)).toThrow(/TRANSACTION_TOKEN_HOURS/);
  });
});
