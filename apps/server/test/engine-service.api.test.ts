import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { busyWhenRemoteBusy, EngineBusyError, engineServiceReady, remoteOcrEngine } from '../src/engines/remote/client.js';
import { engineServicePaths } from '../src/engines/remote/protocol.js';
import { lazyEngine } from '../src/engines/lazy-provider.js';
import type { ZodApp } from '../src/http/deps.js';
import { createDatabase } from '../src/store/db.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { trxHeaders } from './support/fixtures.js';
import { generatedHolder, scheduledReading, strangerFace } from './support/holder.js';
import { acceptConsents, journeyConsents } from './support/journey.js';
import { testScheduleEnv } from './support/schedule.js';
import { multipartBody, type FormPart } from './uploads/samples.js';

const token = 'engine-service-token-0123456789abcdef';
const metricsToken = 'metrics-token-0123456789abcdef-0123';

let dir: string;
let holder: Awaited<ReturnType<typeof generatedHolder>>;
const videos: Record<'holder' | 'other', Buffer> = {} as never;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'engine-service-'));
  holder = await generatedHolder(dir);
  [videos.holder, videos.other] = await Promise.all([scheduledReading(dir, holder.faceId), scheduledReading(dir, strangerFace)]);
}, 120_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * OCR and face work on the workers (issue 17 item 1; docs/decisions.md "OCR and face work on the workers"): a worker
 * with ENGINE_SERVICE_TOKEN serves its engines; an API node with ENGINE_SERVICE_URL sends them every read and
 * decision. The journey's answers are the same; the worker's engine metrics count the work; a call without the
 * token is refused.
 */
describe.each(engines)('engine service between an API node and a worker ($name)', (engine) => {
  let worker: TestApp;
  let workerUrl: string;
  let api: ZodApp;
  let closeApi: () => Promise<void>;

  const upload = (url: string, headers: Record<string, string>, parts: FormPart[]) => {
    const { payload, contentType } = multipartBody(parts);
    return api.inject({ method: 'POST', url, headers: { ...headers, 'content-type': contentType }, payload });
  };
  const engineRuns = async (name: 'ocr' | 'face') => {
    const text = (await worker.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } })).body;
    const line = text.split('\n').find((l) => l.startsWith(`kyc_engine_decision_duration_seconds_count{engine="${name}"`));
    return Number(line?.split(' ').at(-1) ?? 0);
  };

  beforeAll(async () => {
    worker = await startTestApp(engine, { ...testScheduleEnv, PROCESS_ROLE: 'worker', ENGINE_SERVICE_TOKEN: token, METRICS_TOKEN: metricsToken });
    workerUrl = await worker.app.listen({ host: '127.0.0.1', port: 0 });
    const db = createDatabase(worker.database);
    api = await buildApp({ ...worker.config, processRole: 'api', engineService: { urls: [workerUrl], token } }, { db });
    closeApi = async () => {
      await api.close();
      await db.destroy();
    };
  }, 60_000);
  afterAll(async () => {
    await closeApi?.();
    await worker?.close();
  });

  it('reads the ID and decides the face video on the worker: the same answers as in one process', async () => {
    const h = trxHeaders();
    expect((await api.inject({ method: 'GET', url: '/v1/params', headers: h })).statusCode).toBe(200);
    await acceptConsents(api, h, journeyConsents);
    const ocrBefore = await engineRuns('ocr');
    const front = await upload('/v2/ocr', h, [
      { name: 'uuidUser', value: h.cliente },
      { name: 'side', value: 'front' },
      { name: 'ine', filename: 'front.png', contentType: 'image/png', data: holder.front },
    ]);
    expect(front.statusCode, front.body).toBe(200);
    expect(front.json().payload.ocrData.curp).toBe(holder.truth.ocrFront.curp);
    expect(await engineRuns('ocr')).toBeGreaterThan(ocrBefore);

    const faceBefore = await engineRuns('face');
    const code = await upload('/v1/otp', h, [
      { name: 'uuid', value: h.cliente },
      { name: 'file', filename: 'rostro.jpg', contentType: 'image/jpeg', data: holder.photo },
    ]);
    expect(code.statusCode, code.body).toBe(200);
    const video = async (bytes: Buffer) => {
      const { created, expire } = (
        await upload('/v1/otp', h, [
          { name: 'uuid', value: h.cliente },
          { name: 'file', filename: 'rostro.jpg', contentType: 'image/jpeg', data: holder.photo },
        ])
      ).json().payload.codes;
      return upload('/v2/videotoken', h, [
        { name: 'uuidUser', value: h.cliente },
        { name: 'created', value: created },
        { name: 'expire', value: expire },
        { name: 'service_call', value: 'videotoken-embedding' },
        { name: 'videotoken', filename: 'video.mp4', contentType: 'video/mp4', data: bytes },
      ]);
    };
    // Somebody else: refused by the face match, decided on the worker like the holder's match.
    expect((await video(videos.other)).json().payload?.match).not.toBe(true);
    const matched = await video(videos.holder);
    expect(matched.statusCode, matched.body).toBe(200);
    expect(matched.json().payload).toMatchObject({ match: true, liveness: true });
    expect(await engineRuns('face')).toBeGreaterThan(faceBefore);
  }, 180_000);

  it('is ready while a worker serving the engines answers ready, and not without one', async () => {
    const ready = await api.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json().checks).toMatchObject({ ocrEngine: true, faceEngine: true });
    expect(await engineServiceReady([workerUrl])).toBe(true);
    // Nothing listens on port 9 here: no worker answers.
    expect(await engineServiceReady(['http://127.0.0.1:9'])).toBe(false);
  });

  it('refuses a call without the token, and an OCR image error crosses as the same error', async () => {
    const anonymous = await fetch(new URL(engineServicePaths.ocrReadProof, workerUrl), { method: 'POST', body: 'x' });
    expect(anonymous.status).toBe(401);
    const remote = remoteOcrEngine({ urls: [workerUrl], token });
    await expect(remote.readProof(Buffer.from('not a picture'))).rejects.toMatchObject({ name: 'OcrImageError' });
    await expect(remoteOcrEngine({ urls: [workerUrl], token: `${token}x` }).readProof(Buffer.from('x'))).rejects.toThrow(/401/);
  });
});

describe('a worker that answers busy', () => {
  it('makes the API node answer busy as for its own full queue: the run resolves to undefined', async () => {
    const provider = busyWhenRemoteBusy(lazyEngine(async () => ({ close: async () => undefined }), 1));
    expect(
      await provider.withSlot(async () => {
        throw new EngineBusyError('every slot taken');
      }),
    ).toBeUndefined();
    await expect(provider.withSlot(async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await provider.withSlot(async () => 'read')).toBe('read');
  });
});
