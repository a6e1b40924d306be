import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoGrantor } from '../src/seed.js';
import { createDatabase } from '../src/store/db.js';
import { findGrantorByApiKey, readStoredParams, writeParams } from '../src/store/grantors.js';
import { migrateToLatest, migrationsComplete } from '../src/migrations.js';
import { endAttempt, raiseAttempts, readAttempts, resetAttempts, spendAttempt } from '../src/store/attempts.js';
import { insertTransactionIfAbsent, setLockUntil, findTransaction } from '../src/store/transactions.js';
import { createTestDatabase, engines, type TestDatabase } from './support/app.js';
import { demoId } from './support/fixtures.js';

describe.each(engines)('store ($name)', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => t?.close());

  it('migrations are idempotent and complete', async () => {
    expect(await migrateToLatest(t.db)).toEqual([]);
    expect(await migrationsComplete(t.db)).toBe(true);
  });

  it('migrates a fresh schema while another schema already holds migration tables', async () => {
    const second = await createTestDatabase(engine);
    try {
      expect(await migrationsComplete(second.db)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('seeds the demo grantor idempotently, keeping what an operator changed', async () => {
    expect(await seedDemoGrantor(t, true)).toBe('created');
    await writeParams(t, demoId, { NOMBRE_CORTO: 'Demo Operador' });
    expect(await seedDemoGrantor(t, true)).toBe('kept');
    const stored = await readStoredParams(t, demoId);
    expect(stored.NOMBRE_CORTO).toBe('Demo Operador');
    expect(stored.CIUDAD_LEGAL_DEL_OTORGANTE).toBe('Ciudad de México');
    expect((await findGrantorByApiKey(t, 'demo'))?.id).toBe(demoId);
  });

  it('DEMO_GRANTOR=false deactivates the demo grantor; true reactivates it', async () => {
    expect(await seedDemoGrantor(t, false)).toBe('deactivated');
    expect(await findGrantorByApiKey(t, 'demo')).toBeUndefined();
    await seedDemoGrantor(t, true);
    expect(await findGrantorByApiKey(t, 'demo')).toBeDefined();
  });

  it('counts attempts per step atomically', async () => {
    const uuidTrx = randomUUID();
    expect(await insertTransactionIfAbsent(t.db, { uuidTrx, uuidUser: randomUUID(), grantorId: demoId })).toBe(true);
    expect(await insertTransactionIfAbsent(t.db, { uuidTrx, uuidUser: randomUUID(), grantorId: demoId })).toBe(false);
    // Eight spends at once on a limit of 3: exactly three go ahead; being decided, none is counted yet.
    const spends = await Promise.all(Array.from({ length: 8 }, () => spendAttempt(t.db, uuidTrx, 'video_token', 3)));
    expect(spends.filter(Boolean)).toHaveLength(3);
    expect(await readAttempts(t.db, uuidTrx)).toEqual({});
    // One counted, one given back, one using them all.
    expect(await endAttempt(t.db, uuidTrx, 'video_token', { kind: 'count' })).toBe(1);
    expect(await endAttempt(t.db, uuidTrx, 'video_token', { kind: 'give_back' })).toBe(1);
    expect(await spendAttempt(t.db, uuidTrx, 'video_token', 3)).toBe(true);
    expect(await spendAttempt(t.db, uuidTrx, 'video_token', 3)).toBe(false);
    expect(await endAttempt(t.db, uuidTrx, 'video_token', { kind: 'use_all', limit: 3 })).toBe(3);
    expect(await endAttempt(t.db, uuidTrx, 'video_token', { kind: 'give_back' })).toBe(3);
    expect(await spendAttempt(t.db, uuidTrx, 'video_token', 3)).toBe(false);
    expect(await spendAttempt(t.db, uuidTrx, 'id_frontal', 0)).toBe(false);
    expect(await spendAttempt(t.db, uuidTrx, 'id_frontal', 3)).toBe(true);
    expect(await endAttempt(t.db, uuidTrx, 'id_frontal', { kind: 'count' })).toBe(1);
    expect(await readAttempts(t.db, uuidTrx)).toEqual({ video_token: 3, id_frontal: 1 });
    expect(await raiseAttempts(t.db, uuidTrx, 'id_frontal', 3)).toBe(3);
    await resetAttempts(t.db, uuidTrx, 'video_token');
    expect(await readAttempts(t.db, uuidTrx)).toEqual({ id_frontal: 3 });
  });

  it('stores and clears a lockout', async () => {
    const uuidTrx = randomUUID();
    await insertTransactionIfAbsent(t.db, { uuidTrx, uuidUser: randomUUID(), grantorId: demoId });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await setLockUntil(t.db, uuidTrx, until);
    expect((await findTransaction(t.db, uuidTrx))?.lockUntil).toBe(until);
    await setLockUntil(t.db, uuidTrx, null);
    expect((await findTransaction(t.db, uuidTrx))?.lockUntil).toBeNull();
  });

  it('enforces the grantor foreign key on transactions', async () => {
    await expect(insertTransactionIfAbsent(t.db, { uuidTrx: randomUUID(), uuidUser: randomUUID(), grantorId: randomUUID() })).rejects.toThrow();
  });
});

describe('migration failure (sqlite)', () => {
  it('names the migration that failed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kyc-migrate-'));
    const db = createDatabase({ kind: 'sqlite', file: path.join(dir, 'broken.sqlite') });
    try {
      await sql`create table grantors (id text)`.execute(db);
      await expect(migrateToLatest(db)).rejects.toThrow(/^Migration 0001_foundation failed: .*grantors/);
      expect(await migrationsComplete(db)).toBe(false);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('database file modes (sqlite)', () => {
  it('creates the folder 0700 and the database file 0600, and tightens a file created looser', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kyc-modes-'));
    try {
      const file = path.join(dir, 'data', 'onboarding.sqlite');
      const db = createDatabase({ kind: 'sqlite', file });
      await migrateToLatest(db);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(`${file}-wal`).mode & 0o077).toBe(0);
      await db.destroy();

      chmodSync(file, 0o644);
      const reopened = createDatabase({ kind: 'sqlite', file });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      await reopened.destroy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
