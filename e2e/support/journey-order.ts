import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningServer } from './server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const demoGrantorId = '00000000-0000-4000-8000-000000000001';

/** The main journey's consents, with the data_user entry the flow writes for each (journey/journey.ts). */
export const consentData = { terminos: 'terms_acepted', clausula: 'req_elec_acepted', autorizacion: 'request_report_acepted' } as const;
export type JourneyConsent = keyof typeof consentData;

/**
 * Records consents of the page's transaction as the flow does (the acceptance audit event with the text's version
 * and SHA-256, and the data_user entry), for journeys that start past them: the server keeps the journey's order
 * (docs/decisions.md "The server holds the journey's order") and so does the browser.
 */
export async function recordConsents(page: Page, server: RunningServer, consents: readonly JourneyConsent[] = ['terminos']): Promise<void> {
  const s = await page.evaluate(() => ({
    uuidUser: localStorage.getItem('uuidUser') ?? '',
    uuidTrx: localStorage.getItem('uuidTrx') ?? '',
    apikey: localStorage.getItem('apikeyOtorgante') ?? '',
  }));
  const dato = JSON.stringify({ version: 'e2e', sha256: 'a'.repeat(64), userAgent: 'e2e' });
  for (const paso of consents) {
    const response = await fetch(`${server.url}/v1/celd_events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: s.apikey, transaccion: s.uuidTrx, cliente: s.uuidUser },
      body: JSON.stringify({ uuid_clt: s.uuidUser, uuid_trx: s.uuidTrx, uuid_oto: '', paso, tipo: 'Aceptación', dato, finished: false, time_stamp: new Date().toISOString() }),
    });
    expect(response.status, await response.text()).toBe(200);
  }
  await page.evaluate(
    (descriptions) => {
      const stored = JSON.parse(localStorage.getItem('data_user') ?? '[]') as { description: string; value: string }[];
      const kept = stored.filter((d) => !descriptions.includes(d.description));
      localStorage.setItem('data_user', JSON.stringify([...kept, ...descriptions.map((description) => ({ description, value: 'true' }))]));
    },
    consents.map((c): string => consentData[c]),
  );
}

/**
 * A usable ID front for the page's transaction, written in the server's own database (its DATA_DIR and keys), for
 * journeys that start past the ID capture without a card to show the camera; the browser's ocrFront too.
 */
export async function seedIdFront(page: Page, server: RunningServer, ocrData: Record<string, string> = { nombreCompleto: 'MARIA FERNANDA NUÑEZ ZUÑIGA' }, documentType = 'INE'): Promise<void> {
  await seedEvidence(page, server, 'ocr_frente', { verdict: { kind: 'accepted' }, documentType, ocrData });
  await page.evaluate((data) => localStorage.setItem('ocrFront', JSON.stringify(data)), ocrData);
}

/** A face-video decision that did not match, as the face-video feature stores it, for screens after the video. */
export async function seedFailedFaceVideo(page: Page, server: RunningServer): Promise<void> {
  await seedEvidence(page, server, 'video_token', {
    match: false,
    faceScore: 0.1,
    threshold: 0.5,
    liveness: { passed: false, spoof: false, signals: {} },
    spokenCode: { verified: null, engine: 'none', detail: 'e2e' },
  });
  // What the face screen keeps after a decision (the result's route follows it).
  await page.evaluate(() => localStorage.setItem('face', JSON.stringify({ match: false, liveness: 'No superada' })));
}

/** A face-video decision that matched (live, similar face), for the final screens of a result that is not RED. */
export async function seedMatchingFaceVideo(page: Page, server: RunningServer): Promise<void> {
  await seedEvidence(page, server, 'video_token', {
    match: true,
    faceScore: 0.82,
    threshold: 0.5,
    liveness: { passed: true, spoof: false, signals: {} },
    spokenCode: { verified: null, engine: 'none', detail: 'e2e' },
  });
  await page.evaluate(() => localStorage.setItem('face', JSON.stringify({ match: true, liveness: true })));
}

async function seedEvidence(page: Page, server: RunningServer, kind: string, payload: unknown): Promise<void> {
  const uuidTrx = await page.evaluate(() => localStorage.getItem('uuidTrx') ?? '');
  const dist = (file: string) => path.join(root, 'apps/server/dist', file);
  const { loadConfig } = (await import(dist('config.js'))) as typeof import('../../apps/server/src/config.js');
  const { createDatabase } = (await import(dist('store/db.js'))) as typeof import('../../apps/server/src/store/db.js');
  const { addEvidence } = (await import(dist('store/evidence.js'))) as typeof import('../../apps/server/src/store/evidence.js');
  const { createDataCipher, loadDataKey } = (await import(dist('crypto/data-cipher.js'))) as typeof import('../../apps/server/src/crypto/data-cipher.js');
  const config = loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' });
  const db = createDatabase(config.database);
  try {
    await addEvidence(db, createDataCipher(loadDataKey(config).key), {
      uuidTrx,
      grantorId: demoGrantorId,
      kind,
      payload,
    });
  } finally {
    await db.destroy();
  }
}
