import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ffmpegPath, writeHologramVideo } from '@kyc/fixtures';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newWatchedPage, screenshot } from '../support/browser.js';
import { openEntry } from '../support/camera.js';
import { stopAll } from '../support/rig.js';
import { startServer, type RunningServer } from '../support/server.js';
import { recordConsents } from '../support/journey-order.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The holograma evidence payload, decrypted with the server's own modules from its data folder. */
async function storedMeasure(uuidTrx: string): Promise<{ outcome: string; framesTracked: number; framesAnalysed: number; highlightChange: number }> {
  const dist = (file: string) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
  const { createDataCipher, loadDataKey } = await import(dist('crypto/data-cipher.js'));
  const { createDatabase } = await import(dist('store/db.js'));
  const { latestEvidence } = await import(dist('store/evidence.js'));
  const cipher = createDataCipher(loadDataKey({ dataDir: server.dataDir, dataEncryptionKey: undefined }).key);
  const db = createDatabase({ kind: 'sqlite', file: path.join(server.dataDir, 'onboarding.sqlite') });
  try {
    return (await latestEvidence(db, cipher, uuidTrx, 'holograma')).payload;
  } finally {
    await db.destroy();
  }
}
let server: RunningServer;
let browser: Browser;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-holo-'));
  const webm = path.join(work, 'holo.webm');
  await writeHologramVideo(webm, { highlight: true, seconds: 4, fps: 10 });
  const camera = path.join(work, 'camera.y4m');
  await run(ffmpegPath(), ['-v', 'error', '-y', '-i', webm, '-pix_fmt', 'yuv420p', camera]);
  server = await startServer();
  browser = await launchBrowser({ videoFile: camera });
}, 120_000);

afterAll(() => stopAll({ browser, server, work }));

describe('/holograma with the fake camera', () => {
  it('records the ID while the light sweeps it, uploads to id_calibrate and goes on to the capture', async () => {
    const { context, page, pageErrors } = await newWatchedPage(browser, 'phone');
    await openEntry(page, `${server.url}/demo`);
    // The journey's order: what comes before this screen is recorded (terms; the ID for the address steps).
    await recordConsents(page, server, ['terminos']);
    const uuidTrx = await page.evaluate(() => localStorage.getItem('uuidTrx'));
    await page.goto(`${server.url}/holograma`);

    await page.getByRole('button', { name: 'CALIBRAR' }).click();
    const record = page.getByRole('button', { name: 'CAPTURAR Y CALIBRAR' });
    await expect.poll(() => record.isEnabled(), { timeout: 20_000 }).toBe(true);
    await record.click();
    await page.getByRole('button', { name: 'CALIBRANDO ...' }).waitFor();
    await screenshot(page, 'phone-30-holograma-calibrando');
    // Recorder path: stop and upload at 6 s, then /identificacion.
    await page.waitForURL('**/identificacion', { timeout: 40_000 });

    const response = await fetch(`${server.url}/v1/transactions/${uuidTrx}/events`, { headers: { authorization: 'Bearer demo-secret' } });
    const evidence = (await response.json()).payload.evidence as { kind: string; sha256: string | null }[];
    const hologram = evidence.filter((e) => e.kind === 'holograma');
    expect(hologram).toHaveLength(1);
    expect(hologram[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    // What the server measured on the browser's own recording (read from the stored, encrypted evidence).
    const measure = await storedMeasure(uuidTrx!);
    expect(measure).toMatchObject({ outcome: 'passed' });
    expect(measure.framesTracked).toBeGreaterThan(measure.framesAnalysed / 2);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);
});
