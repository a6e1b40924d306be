import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildDocument, faceFrameJpeg, packageDir } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId } from './support/fixtures.js';
import { imageSample, multipartBody, pdfSample, videoSamples, type FormPart } from './uploads/samples.js';

/**
 * POST /v1/faces/compare on the real face engine. The face figures are asserted as the call's own decision
 * (match = similarity >= threshold, whatever the shipped threshold is) and as orderings (the same person scores
 * above another person against the same reference), so that a new descriptor or threshold keeps them meaningful.
 * The heavy cases run on the first engine; every engine runs one comparison and its audit row.
 */
const UPLOAD_LIMIT = 4_000_000;
const REAL = path.resolve('../shared/data/real-dev/faces');
const haveReal = existsSync(REAL);
if (!haveReal) console.warn(`real photos not found at ${REAL}: the real-photo cases of faces-compare are skipped`);

// INE seed 22 carries face fa-s6-b; fa-s3-a is somebody else.
const SEED = '22';
const OTHER_FACE = 'fa-s3-a';

interface Payload {
  match: boolean;
  similarity: number;
  threshold: number;
  reference: { kind: string; width: number; height: number; face: { box: number[]; score: number } };
  probe: {
    kind: string;
    width: number;
    height: number;
    face: { box: number[]; score: number; frameTimeMs?: number };
    frames?: { sampled: number; tracked: number; withFace: number; described: number };
  };
}

let dir: string;
let idFront: Buffer;
let selfie: Buffer;
let otherSelfie: Buffer;
let selfieVideo: Buffer;
let selfieWebm: Buffer;
let groupPhoto: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'faces-compare-'));
  const doc = await buildDocument('ine', 0, { seed: SEED, referenceDate: { y: 2026, m: 11, d: 26 } });
  expect(doc.face?.id).toBe('fa-s6-b');
  idFront = doc.sides.find((s) => s.side === 'front')!.png;
  selfie = await faceFrameJpeg(doc.face!.id);
  otherSelfie = await faceFrameJpeg(OTHER_FACE);
  // A 2 s H.264 clip of the holder (what a phone records), made from the selfie with a slow zoom so frames differ.
  await writeFile(path.join(dir, 'selfie.jpg'), selfie);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-loop',
    '1',
    '-framerate',
    '10',
    '-t',
    '2',
    '-i',
    path.join(dir, 'selfie.jpg'),
    '-vf',
    "zoompan=z='1+0.002*on':d=1:s=640x480:fps=10",
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-y',
    path.join(dir, 'selfie.mp4'),
  ]);
  selfieVideo = await readFile(path.join(dir, 'selfie.mp4'));
  // The same clip as a browser's MediaRecorder sends it (VP8 in WebM).
  execFileSync('ffmpeg', ['-v', 'error', '-i', path.join(dir, 'selfie.mp4'), '-c:v', 'libvpx', '-b:v', '800k', '-deadline', 'realtime', '-cpu-used', '8', '-y', path.join(dir, 'selfie.webm')]);
  selfieWebm = await readFile(path.join(dir, 'selfie.webm'));
  groupPhoto = await readFile(path.join(packageDir('@vladmandic/face-api'), 'demo/sample1.jpg'));
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const file = (name: string, data: Buffer, contentType = 'application/octet-stream'): FormPart => ({ name, filename: `${name}.bin`, contentType, data });

async function cli(t: TestApp, ...argv: string[]) {
  const out: string[] = [];
  const code = await runGrantorCommand(t, argv, { out: (l) => out.push(l), err: (l) => out.push(l) });
  expect(code, out.join('\n')).toBe(0);
  return out.join('\n');
}

function compareWith(t: TestApp, parts: FormPart[], secret = 'demo-secret') {
  const { payload, contentType } = multipartBody(parts);
  return t.app.inject({ method: 'POST', url: '/v1/faces/compare', headers: { 'content-type': contentType, authorization: `Bearer ${secret}` }, payload });
}

async function compared(t: TestApp, reference: Buffer, probe: Buffer, secret?: string): Promise<Payload> {
  const res = await compareWith(t, [file('reference', reference), file('probe', probe)], secret);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  const payload = res.json().payload as Payload;
  // The decision is the call's own threshold applied to its own similarity.
  expect(payload.match).toBe(payload.similarity >= payload.threshold);
  expect(payload.reference.face.score).toBeGreaterThan(0);
  expect(payload.probe.face.score).toBeGreaterThan(0);
  return payload;
}

describe.each(engines)('POST /v1/faces/compare, storage ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { UPLOAD_LIMIT: String(UPLOAD_LIMIT) });
  }, 60_000);
  afterAll(async () => t?.close());

  it('compares the ID of a fixture holder with a selfie, and keeps only an audit row with ids and the outcome', async () => {
    const result = await compared(t, idFront, selfie);
    expect(result.reference.kind).toBe('image');
    expect(result.probe.kind).toBe('image');
    const rows = await t.db.selectFrom('server_audit_events').selectAll().where('grantor_id', '=', demoId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: 'faces.compare', status: 200, outcome: result.match ? 'match' : 'no_match', secret_key_id: '00000000-0000-4000-8000-0000000000d5' });
    expect(JSON.parse(rows[0]!.detail)).toMatchObject({ similarity: result.similarity, threshold: result.threshold, probe: 'image' });
    expect(rows[0]!.detail.length).toBeLessThan(300);
    // No file was kept: no blob store entry, no evidence row.
    expect(existsSync(path.join(t.dataDir, 'blobs')) ? readdirSync(path.join(t.dataDir, 'blobs')) : []).toEqual([]);
    expect(await t.db.selectFrom('evidence').selectAll().execute()).toEqual([]);
  }, 120_000);
});

describe('POST /v1/faces/compare', () => {
  let t: TestApp;
  beforeAll(async () => {
    // One comparison may wait for a slot: the queue test below fills both slots and the queue.
    t = await startTestApp(engines[0]!, { UPLOAD_LIMIT: String(UPLOAD_LIMIT), ENGINE_QUEUE_LENGTH: '1' });
  }, 60_000);
  afterAll(async () => t?.close());

  it('the same fixture person scores above another person against the same ID; the grantor threshold decides', async () => {
    const same = await compared(t, idFront, selfie);
    const other = await compared(t, idFront, otherSelfie);
    console.info(`fixture ID of fa-s6-b: its selfie ${same.similarity}, ${OTHER_FACE}'s ${other.similarity}, threshold ${same.threshold}`);
    expect(same.similarity).toBeGreaterThan(other.similarity);
    expect(same.reference.face.box).toEqual(other.reference.face.box);
    expect(same.threshold).toBe(other.threshold);
  }, 120_000);

  it("another grantor's secret works, with that grantor's own threshold", async () => {
    const grantorId = randomUUID();
    await cli(t, 'create', '--name', 'Financiera Umbral', '--id', grantorId);
    await cli(t, 'set', grantorId, 'UMBRAL_ROSTRO=0.999');
    const secret = /key: (sk_live_\S+)/.exec(await cli(t, 'secret-create', grantorId, '--label', 'review'))![1]!;
    const demo = await compared(t, idFront, selfie);
    const own = await compared(t, idFront, selfie, secret);
    expect(own.threshold).toBe(0.999);
    expect(own.similarity).toBe(demo.similarity);
    expect(own.match).toBe(false);
    const rows = await t.db.selectFrom('server_audit_events').select(['grantor_id', 'secret_key_id']).where('grantor_id', '=', grantorId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.secret_key_id).not.toBe('00000000-0000-4000-8000-0000000000d5');
  }, 120_000);

  it('a short H.264 (MP4) or VP8 (WebM) video as the probe: frames sampled, the sharpest described, the median kept', async () => {
    const video = await compared(t, idFront, selfieVideo);
    expect(video.probe.kind).toBe('video');
    expect(video.probe.frames).toEqual({ sampled: 4, tracked: 4, withFace: 4, described: 3 });
    expect(video.probe.face.frameTimeMs).toEqual(expect.any(Number));
    const other = await compared(t, idFront, otherSelfie);
    const webm = await compared(t, idFront, selfieWebm);
    console.info(`fixture ID of fa-s6-b: its H.264 clip ${video.similarity}, the same clip in WebM ${webm.similarity}`);
    expect(webm.probe.kind).toBe('video');
    expect(video.similarity).toBeGreaterThan(other.similarity);
    expect(webm.similarity).toBeGreaterThan(other.similarity);
  }, 120_000);

  it('no face: 422 naming the file', async () => {
    const blank = await imageSample('jpeg', 640, 480);
    let res = await compareWith(t, [file('reference', blank), file('probe', selfie)]);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ status: 422, message: 'No face was found in the reference image (field reference)', message_client: 'No se encontró un rostro en la imagen de referencia.' });
    res = await compareWith(t, [file('reference', selfie), file('probe', blank)]);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe('No face was found in the probe image (field probe)');
    // A video without a face (ffmpeg's test pattern).
    res = await compareWith(t, [file('reference', selfie), file('probe', videoSamples().mp4)]);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe('No face was found in the probe video (field probe)');
  }, 120_000);

  it('several faces of similar size: 422 naming the file', async () => {
    const res = await compareWith(t, [file('reference', idFront), file('probe', groupPhoto)]);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toMatch(/^The probe image \(field probe\) shows \d+ faces of similar size/);
    expect(res.json().message_client).toBe('Se encontró más de un rostro en la imagen a comparar.');
  }, 120_000);

  it('files that are not images, unreadable, missing, extra or too large: a clear 4xx and no face work', async () => {
    const cases: [FormPart[], number, RegExp][] = [
      [[file('reference', pdfSample()), file('probe', selfie)], 415, /file reference is PDF; accepted: PNG, JPEG, WebP/],
      [[file('reference', selfie), file('probe', Buffer.from('just some text, not a picture'))], 415, /file probe is unrecognised/],
      [[file('reference', selfieVideo), file('probe', selfie)], 415, /file reference is MP4/],
      [[file('reference', selfie.subarray(0, 2000)), file('probe', selfie)], 400, /reference file \(field reference\) cannot be used: The image is damaged/],
      [[file('reference', selfie)], 400, /the file probe is missing/],
      [[file('reference', selfie), file('probe', Buffer.alloc(0))], 400, /the file probe is empty/],
      [[file('reference', selfie), file('probe', selfie), { name: 'note', value: 'x' }], 400, /only the files reference and probe/],
      [[file('reference', selfie), file('selfie', selfie)], 400, /unknown multipart field selfie/],
      [[file('reference', selfie), file('probe', Buffer.concat([selfie, Buffer.alloc(UPLOAD_LIMIT)]))], 413, /larger than 4000000 bytes/],
    ];
    for (const [parts, status, message] of cases) {
      const res = await compareWith(t, parts);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ status, message: expect.stringMatching(message) });
    }
    const json = await t.app.inject({ method: 'POST', url: '/v1/faces/compare', headers: { authorization: 'Bearer demo-secret' }, payload: { reference: 'x' } });
    expect(json.statusCode).toBe(415);
  }, 120_000);

  it('more comparisons than the face engine takes at once: one waits its turn, past the queue 503 Busy with Retry-After', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => compareWith(t, [file('reference', idFront), file('probe', selfie)])));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 503]);
    const busy = results.find((r) => r.statusCode === 503)!;
    expect(busy.json().message).toMatch(/^Busy/);
    expect(busy.headers['retry-after']).toBe('5');
  }, 120_000);

  it('/openapi.json documents the two binary fields with their size limit and the bearer scheme', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/v1/faces/compare'].post;
    const schema = op.requestBody.content['multipart/form-data'].schema;
    expect(schema.required).toEqual(['reference', 'probe']);
    for (const field of ['reference', 'probe']) expect(schema.properties[field]).toMatchObject({ type: 'string', format: 'binary', maxLength: UPLOAD_LIMIT });
    expect(op.security).toEqual([{ secretKey: [] }]);
    expect(doc.components.securitySchemes.secretKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(op.responses['200'].content['application/json'].schema.properties.payload.required).toEqual(expect.arrayContaining(['match', 'similarity', 'threshold', 'reference', 'probe']));
  });

  describe.skipIf(!haveReal)('real photos (../shared/data/real-dev/faces)', () => {
    const real = (name: string) => readFile(path.join(REAL, name));
    // The same reference against another photo of the same person and a photo of somebody else.
    const triples = [
      ['face_recognition/obama_1.jpg', 'face_recognition/obama_2.jpg', 'face_recognition/biden_1.jpg'],
      ['face_recognition/kit_harington_1.jpeg', 'face_recognition/kit_harington_2.jpeg', 'face_recognition/rose_leslie_1.jpg'],
      ['openface/clapton-1.jpg', 'openface/clapton-2.jpg', 'openface/lennon-1.jpg'],
    ] as const;

    it.each(triples)(
      '%s: another photo of the same person scores above somebody else',
      async (reference, same, other) => {
        const genuine = await compared(t, await real(reference), await real(same));
        const impostor = await compared(t, await real(reference), await real(other));
        console.info(`real pair ${reference}: same person ${genuine.similarity}, another ${impostor.similarity}, threshold ${genuine.threshold}`);
        expect(genuine.similarity).toBeGreaterThan(impostor.similarity);
      },
      120_000,
    );

    it("a real 10 s video against the same person's photo scores above another person's photo", async () => {
      const video = await real('face_recognition/video_lin_manuel_miranda_wh_10s.mp4');
      const genuine = await compared(t, await real('face_recognition/lin_manuel_miranda_1.png'), video);
      const impostor = await compared(t, await real('face_recognition/obama_1.jpg'), video);
      console.info(`real video: same person ${genuine.similarity}, another ${impostor.similarity}, frames ${JSON.stringify(genuine.probe.frames)}`);
      expect(genuine.probe.kind).toBe('video');
      expect(genuine.probe.frames!.described).toBeGreaterThan(0);
      expect(genuine.similarity).toBeGreaterThan(impostor.similarity);
    }, 180_000);

    it('a real photo of two people: 422', async () => {
      const res = await compareWith(t, [file('reference', await real('face_recognition/group_two_people.jpg')), file('probe', await real('face_recognition/obama_2.jpg'))]);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(/^The reference image \(field reference\) shows 2 faces of similar size/);
    }, 120_000);
  });
});
