import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher } from '../../src/crypto/data-cipher.js';
import { addEvidence, latestEvidence, listEvidence } from '../../src/store/evidence.js';
import { insertGrantor } from '../../src/store/grantors.js';
import { insertTransactionIfAbsent } from '../../src/store/transactions.js';
import { createTestDatabase, engines, type TestDatabase } from '../support/app.js';
import { demoId } from '../support/fixtures.js';

const cipher = createDataCipher(Buffer.alloc(32, 8));
const uuidTrx = '0190a6e4-0000-7000-8000-000000000001';
const uuidUser = '0190a6e4-0000-7000-8000-0000000000aa';

describe.each(engines)('evidence repository ($name)', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await insertGrantor(t, { id: demoId, name: 'Demo', apiKey: 'evidence-test-key' });
    await insertTransactionIfAbsent(t.db, { uuidTrx, uuidUser, grantorId: demoId });
  });
  afterAll(async () => t?.close());

  it('adds records, lists them in order without payloads, and returns the latest of a kind with its payload', async () => {
    expect(await listEvidence(t.db, uuidTrx)).toEqual([]);
    expect(await latestEvidence(t.db, cipher, uuidTrx, 'comprobante_domicilio')).toBeUndefined();

    const first = await addEvidence(t.db, cipher, { uuidTrx, grantorId: demoId, kind: 'comprobante_domicilio', blobKey: 'a/1.png', sha256: 'aa', payload: { size: 1 } });
    const note = await addEvidence(t.db, cipher, { uuidTrx, grantorId: demoId, kind: 'ocr_frente', payload: { nombre: 'María' } });
    const second = await addEvidence(t.db, cipher, { uuidTrx, grantorId: demoId, kind: 'comprobante_domicilio', blobKey: 'a/2.pdf', sha256: 'bb' });

    const listed = await listEvidence(t.db, uuidTrx);
    expect(listed.map((e) => e.id)).toEqual([first, note, second]);
    expect(listed[1]).toEqual({ id: note, kind: 'ocr_frente', blobKey: null, sha256: null, createdAt: expect.any(String) });
    expect(listed[0]).not.toHaveProperty('payload');

    expect(await latestEvidence(t.db, cipher, uuidTrx, 'comprobante_domicilio')).toMatchObject({ id: second, blobKey: 'a/2.pdf', payload: undefined });
    expect(await latestEvidence(t.db, cipher, uuidTrx, 'ocr_frente')).toMatchObject({ id: note, payload: { nombre: 'María' } });

    const stored = await t.db.selectFrom('evidence').select('payload_enc').where('id', '=', note).executeTakeFirstOrThrow();
    expect(stored.payload_enc).toMatch(/^v1:/);
    expect(stored.payload_enc).not.toContain('María');
  });
});
