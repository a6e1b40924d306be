import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeHologramVideo } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { evidenceKind } from '../src/domain/evidence-kinds.js';
import { latestEvidence } from '../src/store/evidence.js';
import { writeParams } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, trxHeaders } from './support/fixtures.js';
import { acceptConsents } from './support/journey.js';
import { imageSample, multipartBody, type FormPart } from './uploads/samples.js';

type Headers = ReturnType<typeof trxHeaders>;
let dir: string;
const videos: Record<'holo' | 'flat' | 'holoMp4', Buffer> = {} as never;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'id-calibrate-'));
  const make = async (name: keyof typeof videos, highlight: boolean, container: 'webm' | 'mp4') => {
    const file = path.join(dir, `${name}.${container}`);
    await writeHologramVideo(file, { highlight, container, seconds: 3, fps: 10 });
    videos[name] = await readFile(file);
  };
  await make('holo', true, 'webm');
  await make('flat', false, 'webm');
  await make('holoMp4', true, 'mp4');
}, 90_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(engines)('POST /v1/id_calibrate ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  }, 60_000);
  afterAll(async () => t?.close());

  // The journey's order: consent comes before the calibration (domain/journey-order.ts); once per transaction.
  const consented = new Set<string>();
  async function post(headers: Headers, video: Buffer | undefined, contentType = 'video/webm', extra: FormPart[] = [{ name: 'originOS', value: 'android' }]) {
    if (headers.apikey === 'demo' && !consented.has(headers.transaccion)) {
      consented.add(headers.transaccion);
      await acceptConsents(t.app, headers);
    }
    const parts: FormPart[] = [...extra];
    if (video) parts.push({ name: 'ine', filename: 'calibracion.webm', contentType, data: video });
    const { payload, contentType: type } = multipartBody(parts);
    return t.app.inject({ method: 'POST', url: '/v1/id_calibrate', headers: { ...headers, 'content-type': type }, payload });
  }

  const cipher = () => createDataCipher(loadDataKey(t.config).key);

  it('measures moving highlights on a holographic card and keeps the video and the measure', async () => {
    const headers = trxHeaders();
    const res = await post(headers, videos.holo);
    expect(res.statusCode, res.body).toBe(200);
    const measure = res.json().payload;
    expect(measure).toMatchObject({ outcome: 'passed', framesAnalysed: 24, framesTracked: 24, threshold: 0.05 });
    expect(measure.highlightChange).toBeGreaterThan(0.5);

    const stored = await latestEvidence(t.db, cipher(), headers.transaccion, evidenceKind.hologram);
    expect(stored?.payload).toMatchObject({ outcome: 'passed', highlightChange: measure.highlightChange, originOS: 'android' });
    expect(stored?.sha256).toBe(createHash('sha256').update(videos.holo).digest('hex'));
    expect(stored?.blobKey).toMatch(new RegExp(`^${demoId}/${headers.cliente}/holograma/${headers.transaccion}-.+\\.webm$`));
  });

  it('a flat card gives a different measure: no highlight swept, failed', async () => {
    const holo = (await post(trxHeaders(), videos.holo)).json().payload;
    const res = await post(trxHeaders(), videos.flat);
    expect(res.statusCode, res.body).toBe(200);
    const flat = res.json().payload;
    expect(flat.outcome).toBe('failed');
    expect(flat.framesTracked).toBe(24);
    expect(flat.highlightChange).toBeLessThan(0.01);
    expect(holo.highlightChange - flat.highlightChange).toBeGreaterThan(0.5);
  });

  it('reads MP4 too (the iOS recording)', async () => {
    const res = await post(trxHeaders(), videos.holoMp4, 'video/mp4');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payload.outcome).toBe('passed');
  });

  it('honours UMBRAL_HOLOGRAMA', async () => {
    await writeParams(t, demoId, { UMBRAL_HOLOGRAMA: '0.99' });
    try {
      const res = await post(trxHeaders(), videos.holo);
      expect(res.json().payload).toMatchObject({ outcome: 'failed', threshold: 0.99 });
    } finally {
      await writeParams(t, demoId, { UMBRAL_HOLOGRAMA: '0.05' });
    }
  });

  it('refuses what is not a decodable video with a 4xx and stores nothing', async () => {
    const headers = trxHeaders();
    const png = await imageSample('png');
    const image = await post(headers, png, 'video/webm');
    expect(image.statusCode).toBe(415);
    expect(image.json().message).toMatch(/PNG/);
    // A WebM header followed by garbage: sniffed as WebM, refused by the decoder.
    const garbage = Buffer.concat([videos.holo.subarray(0, 64), Buffer.alloc(20_000, 0x5a)]);
    const broken = await post(headers, garbage);
    expect(broken.statusCode, broken.body).toBe(400);
    expect(broken.json().message).toMatch(/Invalid video/);
    expect((await post(headers, undefined)).statusCode).toBe(400);
    expect((await post(headers, Buffer.alloc(0))).statusCode).toBe(400);
    expect((await post(headers, videos.holo, 'video/webm', [{ name: 'otro', value: 'x' }])).statusCode).toBe(400);
    expect((await post({ ...headers, apikey: 'nope' }, videos.holo)).statusCode).toBe(401);
    expect(await latestEvidence(t.db, cipher(), headers.transaccion, evidenceKind.hologram)).toBeUndefined();
  });
});
