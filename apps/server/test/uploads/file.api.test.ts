import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { errorTexts } from '@kyc/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsBlobStore } from '../../src/blob/fs-blob-store.js';
import { generateApiKey } from '../../src/crypto/apikeys.js';
import { createDataCipher, loadDataKey } from '../../src/crypto/data-cipher.js';
import { insertGrantor } from '../../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from '../support/app.js';
import { demoId, trxHeaders } from '../support/fixtures.js';
import { acceptConsents, usableFront } from '../support/journey.js';
import { imageSample, multipartBody, pdfSample, type FormPart } from './samples.js';

const uploadLimit = 200_000;
type Headers = ReturnType<typeof trxHeaders>;

function blobFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'blobs');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

function proofForm(headers: Headers, file: { data: Buffer; filename?: string; contentType?: string } | undefined, overrides: Record<string, string | undefined> = {}): FormPart[] {
  const text: Record<string, string | undefined> = {
    bucket: 'kyc-prod',
    folder: `${demoId}/${headers.cliente}/domicilio`,
    uuid: headers.cliente,
    ...overrides,
  };
  const parts: FormPart[] = Object.entries(text).flatMap(([name, value]) => (value === undefined ? [] : [{ name, value }]));
  if (file) parts.push({ name: 'file', filename: file.filename ?? 'comprobante.png', contentType: file.contentType ?? 'image/png', data: file.data });
  return parts;
}

describe.each(engines)('POST /v1/file, proof of address ($name)', (engine) => {
  let t: TestApp;
  let png: Buffer;
  const otherKey = generateApiKey();

  const send = (headers: Record<string, string>, parts: FormPart[]) => {
    const { payload, contentType } = multipartBody(parts);
    return t.app.inject({ method: 'POST', url: '/v1/file', headers: { ...headers, 'content-type': contentType }, payload });
  };
  /** A transaction opened by the flow (GET /v1/params), as before any real upload. */
  const openTransaction = async (headers: Headers = trxHeaders()) => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/params', headers })).statusCode).toBe(200);
    // The journey's order: consent and a usable ID front come before the proof (domain/journey-order.ts).
    await acceptConsents(t.app, headers);
    await usableFront(t, headers);
    return headers;
  };
  // The proof's own records (the reading of each proof is its own kind, comprobante_lectura; the consent and the ID
  // front recorded before it are not the proof's).
  const evidenceRows = (uuidTrx: string) =>
    t.db.selectFrom('evidence').selectAll().where('uuid_trx', '=', uuidTrx).where('kind', 'not in', ['comprobante_lectura', 'consentimiento', 'ocr_frente']).execute();
  const expectNothingStored = async (headers: Headers, blobsBefore: string[]) => {
    expect(await evidenceRows(headers.transaccion)).toEqual([]);
    expect(blobFiles(t.dataDir)).toEqual(blobsBefore);
  };

  beforeAll(async () => {
    t = await startTestApp(engine, { UPLOAD_LIMIT: String(uploadLimit) });
    await insertGrantor(t, { id: randomUUID(), name: 'Crédito Norte', apiKey: otherKey });
    png = await imageSample('png');
  });
  afterAll(async () => t?.close());

  it('stores a PNG encrypted, records it once as evidence and answers its key, SHA-256 and size', async () => {
    const headers = await openTransaction();
    const res = await send(headers, proofForm(headers, { data: png }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as { status: number; payload: { key: string; sha256: string; size: number } };
    const sha256 = createHash('sha256').update(png).digest('hex');
    expect(body).toEqual({ status: 200, payload: { key: expect.any(String), sha256, size: png.length, lectura: expect.objectContaining({ leido: false }) } });
    const { key } = body.payload;
    expect(key).toMatch(new RegExp(`^${demoId}/${headers.cliente}/domicilio/${headers.transaccion}-\\d{8}T\\d{9}Z-[0-9a-f]{8}\\.png$`));

    const onDisk = readFileSync(path.join(t.dataDir, 'blobs', key));
    expect(onDisk.includes(png.subarray(0, 16))).toBe(false);
    expect(onDisk.includes(png.subarray(2000, 2032))).toBe(false);
    const store = createFsBlobStore(path.join(t.dataDir, 'blobs'), createDataCipher(loadDataKey(t.config).key));
    const read = await store.get(key);
    expect(read.contentType).toBe('image/png');
    expect(read.buffer.equals(png)).toBe(true);

    const rows = await evidenceRows(headers.transaccion);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ grantor_id: demoId, kind: 'comprobante_domicilio', blob_key: key, sha256 });
    expect(rows[0]?.payload_enc).toMatch(/^v1:/);

    const events = await t.app.inject({ method: 'GET', url: `/v1/transactions/${headers.transaccion}/events`, headers: { authorization: 'Bearer demo-secret' } });
    const evidence = (events.json() as { payload: { evidence: { kind: string }[] } }).payload.evidence.filter((e) => e.kind !== 'consentimiento' && e.kind !== 'ocr_frente');
    expect(evidence).toEqual([
      { id: rows[0]?.id, kind: 'comprobante_domicilio', sha256, createdAt: expect.any(String) },
      { id: expect.any(String), kind: 'comprobante_lectura', sha256: null, createdAt: expect.any(String) },
    ]);
  });

  it('accepts JPEG and WebP photos and a PDF, whatever the client calls them', async () => {
    const headers = await openTransaction();
    const uploads = [
      { data: await imageSample('jpeg'), extension: 'jpg' },
      { data: await imageSample('webp'), extension: 'webp' },
      { data: pdfSample(), extension: 'pdf' },
    ];
    for (const upload of uploads) {
      const res = await send(headers, proofForm(headers, { data: upload.data, filename: 'scan.bin', contentType: 'application/octet-stream' }));
      expect(res.statusCode, upload.extension).toBe(200);
      expect((res.json() as { payload: { key: string } }).payload.key.endsWith(`.${upload.extension}`)).toBe(true);
    }
    const rows = await evidenceRows(headers.transaccion);
    expect(rows.map((r) => r.blob_key?.split('.').pop())).toEqual(['jpg', 'webp', 'pdf']);
  });

  it('refuses a text file named .png and sent as image/png with 415, storing nothing', async () => {
    const headers = await openTransaction();
    const before = blobFiles(t.dataDir);
    const res = await send(headers, proofForm(headers, { data: Buffer.from('Recibo de luz, Calle Reforma 123\n'.repeat(50)) }));
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      status: 415,
      message: 'Unsupported file type: the file is unrecognised; accepted: PNG, JPEG, WebP, PDF',
      message_client: errorTexts.proofRetry,
    });
    await expectNothingStored(headers, before);
  });

  it('refuses a truncated PNG and a too-small image with 400', async () => {
    const headers = await openTransaction();
    const before = blobFiles(t.dataDir);
    const truncated = await send(headers, proofForm(headers, { data: png.subarray(0, Math.floor(png.length * 0.8)) }));
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json()).toEqual({ status: 400, message: 'The image is damaged or incomplete', message_client: errorTexts.proofRetry });
    const small = await send(headers, proofForm(headers, { data: await imageSample('png', 200, 150) }));
    expect(small.statusCode).toBe(400);
    expect(small.json()).toMatchObject({ message: 'The image is 200x150 pixels; at least 320x240 is required', message_client: errorTexts.proofRetry });
    await expectNothingStored(headers, before);
  });

  it('refuses a truncated PDF with 400', async () => {
    const headers = await openTransaction();
    const pdf = pdfSample();
    const res = await send(headers, proofForm(headers, { data: pdf.subarray(0, pdf.length - 40), filename: 'recibo.pdf', contentType: 'application/pdf' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'The PDF is damaged or incomplete' });
  });

  it('refuses an empty file with 400', async () => {
    const headers = await openTransaction();
    const before = blobFiles(t.dataDir);
    const res = await send(headers, proofForm(headers, { data: Buffer.alloc(0) }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, message: 'Invalid request: the file file is empty', message_client: errorTexts.proofRetry });
    await expectNothingStored(headers, before);
  });

  it('refuses a file over UPLOAD_LIMIT with 413, whether it streams past the limit or declares it', async () => {
    const headers = await openTransaction();
    const before = blobFiles(t.dataDir);
    const expected = { status: 413, message: `The file is larger than ${uploadLimit} bytes`, message_client: errorTexts.proofRetry };
    const over = Buffer.concat([png, Buffer.alloc(uploadLimit, 1)]);
    const streamed = await send(headers, proofForm(headers, { data: over }));
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toEqual(expected);
    const declared = await send(headers, proofForm(headers, { data: Buffer.concat([over, over, over]) }));
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toEqual(expected);
    await expectNothingStored(headers, before);
  });

  it('answers the 413 over a real connection too, with or without a Content-Length', async () => {
    const headers = await openTransaction();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { payload, contentType } = multipartBody(proofForm(headers, { data: Buffer.concat([png, Buffer.alloc(5_000_000, 1)]) }));
    const post = (body: NonNullable<RequestInit['body']>) => fetch(`${address}/v1/file`, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body, duplex: 'half' });
    const declared = await post(payload);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ status: 413, message_client: errorTexts.proofRetry });
    const chunked = await post(
      new ReadableStream({
        start(controller) {
          for (let offset = 0; offset < payload.length; offset += 64 * 1024) controller.enqueue(payload.subarray(offset, offset + 64 * 1024));
          controller.close();
        },
      }),
    );
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({ status: 413, message: `The file is larger than ${uploadLimit} bytes` });
    expect(await evidenceRows(headers.transaccion)).toEqual([]);
  });

  it('refuses a wrong api key with 401 and another grantor with 403, storing nothing', async () => {
    const headers = await openTransaction();
    const before = blobFiles(t.dataDir);
    const badKey = await send({ ...headers, apikey: 'not-a-key' }, proofForm(headers, { data: png }));
    expect(badKey.statusCode).toBe(401);
    expect(badKey.json()).toEqual({ status: 401, message: 'Invalid api key', message_client: errorTexts.badUrl });
    const otherGrantor = await send({ ...headers, apikey: otherKey }, proofForm(headers, { data: png }));
    expect(otherGrantor.statusCode).toBe(403);
    expect(otherGrantor.json()).toMatchObject({ status: 403, message: 'La transacción no pertenece a este otorgante' });
    await expectNothingStored(headers, before);
  });

  it("refuses another user's folder or uuid with 400", async () => {
    const headers = await openTransaction();
    const before = blobFiles(t.dataDir);
    const folder = await send(headers, proofForm(headers, { data: png }, { folder: `${demoId}/${randomUUID()}/domicilio` }));
    expect(folder.statusCode).toBe(400);
    expect(folder.json().message).toBe('Invalid request: multipart field folder must be <grantor id>/<user id>/domicilio of this transaction');
    const otherGrantorFolder = await send(headers, proofForm(headers, { data: png }, { folder: `${randomUUID()}/${headers.cliente}/domicilio` }));
    expect(otherGrantorFolder.statusCode).toBe(400);
    const uuid = await send(headers, proofForm(headers, { data: png }, { uuid: randomUUID() }));
    expect(uuid.statusCode).toBe(400);
    expect(uuid.json().message).toBe('Invalid request: multipart field uuid must equal the cliente header');
    await expectNothingStored(headers, before);
  });

  it('accepts the folder with upper-case ids and outer slashes', async () => {
    const headers = await openTransaction();
    const folder = `/${demoId.toUpperCase()}/${headers.cliente.toUpperCase()}/domicilio/`;
    const res = await send(headers, proofForm(headers, { data: png }, { folder, uuid: headers.cliente.toUpperCase() }));
    expect(res.statusCode).toBe(200);
  });

  it('names missing, unknown, repeated and misplaced fields with 400', async () => {
    const headers = await openTransaction();
    const before = blobFiles(t.dataDir);
    const cases: [FormPart[], string][] = [
      [proofForm(headers, undefined), 'Invalid request: multipart field file is missing'],
      [proofForm(headers, { data: png }, { folder: undefined }), 'Invalid request: multipart field folder is missing'],
      [proofForm(headers, { data: png }, { folder: undefined, uuid: undefined }), 'Invalid request: multipart fields folder, uuid are missing'],
      [[...proofForm(headers, { data: png }), { name: 'extra', value: 'x' }], 'Invalid request: unknown multipart field extra'],
      [[{ name: 'uuid', value: headers.cliente }, ...proofForm(headers, { data: png })], 'Invalid request: multipart field uuid is repeated'],
      [[...proofForm(headers, undefined), { name: 'file', value: 'not a file' }], 'Invalid request: multipart field file must be a file'],
      [
        [{ name: 'folder', filename: 'f.png', contentType: 'image/png', data: png }, ...proofForm(headers, undefined, { folder: undefined })],
        'Invalid request: multipart field folder must be text, not a file',
      ],
    ];
    for (const [parts, message] of cases) {
      const res = await send(headers, parts);
      expect(res.statusCode, message).toBe(400);
      expect(res.json(), message).toEqual({ status: 400, message });
    }
    await expectNothingStored(headers, before);
  });

  it('accepts one file per request', async () => {
    const headers = await openTransaction();
    const parts = [...proofForm(headers, { data: png }), { name: 'file', filename: 'b.png', contentType: 'image/png', data: png }];
    const res = await send(headers, parts);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, message: 'Invalid request: only one file per request is accepted' });
    expect(await evidenceRows(headers.transaccion)).toEqual([]);
  });

  it('leaves the JSON routes refusing multipart bodies with 415', async () => {
    const headers = await openTransaction();
    const { payload, contentType } = multipartBody([{ name: 'step', value: 'terminos' }]);
    const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: { ...headers, 'content-type': contentType }, payload });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ status: 415, message: `Unsupported media type ${contentType}` });
  });

  it('refuses a request that is not multipart with 415', async () => {
    const headers = await openTransaction();
    const json = await t.app.inject({ method: 'POST', url: '/v1/file', headers, payload: { folder: 'x', uuid: headers.cliente } });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual({ status: 415, message: 'Unsupported media type: expected a multipart/form-data body' });
    const binary = await t.app.inject({ method: 'POST', url: '/v1/file', headers: { ...headers, 'content-type': 'image/png' }, payload: png });
    expect(binary.statusCode).toBe(415);
  });

  it('refuses a malformed multipart body with 400', async () => {
    const headers = await openTransaction();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/file',
      headers: { ...headers, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="uuid"\r\n\r\nabc',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toBe(400);
  });

  it('refuses a text field over 10 KB with 413', async () => {
    const headers = await openTransaction();
    const res = await send(headers, proofForm(headers, { data: png }, { bucket: 'b'.repeat(11 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Multipart field bucket is longer than 10240 bytes');
  });
});

describe.each(engines)('POST /v1/file when the evidence cannot be recorded ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  it('answers 500 and removes the blob it wrote', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers);
    await usableFront(t, headers);
    // The proof's own evidence row cannot be written (the journey-order check before it still reads the table).
    if (engine.name === 'sqlite') {
      await sql`create trigger refuse_proof before insert on evidence when new.kind = 'comprobante_domicilio' begin select raise(abort, 'refused'); end`.execute(t.db);
    } else {
      await sql`create function refuse_proof() returns trigger language plpgsql as $$ begin if new.kind = 'comprobante_domicilio' then raise exception 'refused'; end if; return new; end $$`.execute(
        t.db,
      );
      await sql`create trigger refuse_proof before insert on evidence for each row execute function refuse_proof()`.execute(t.db);
    }
    const { payload, contentType } = multipartBody(proofForm(headers, { data: await imageSample('png') }));
    const res = await t.app.inject({ method: 'POST', url: '/v1/file', headers: { ...headers, 'content-type': contentType }, payload });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ status: 500, message: 'Internal server error' });
    expect(blobFiles(t.dataDir)).toEqual([]);
  });
});
