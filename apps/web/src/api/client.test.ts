import type { CallResponse } from '@kyc/contracts';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { SessionFacts } from '../session/session';
import { ApiError, createApiClient } from './client';

const session: SessionFacts = {
  uuidUser: '11111111-2222-4333-8444-555555555555',
  uuidTrx: '66666666-7777-4888-9999-aaaaaaaaaaaa',
  apikey: 'key-1',
  idOtorgante: 'oto-1',
  uuidOtorgante: 'oto-1',
  fechavigencia: null,
  linkToken: null,
  transactionToken: null,
  completado: 'false',
  externalReference: null,
};

interface Call {
  url: string;
  init: RequestInit;
}

function fakeFetch(responder: (url: string) => Response | Error) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const result = responder(url);
    if (result instanceof Error) throw result;
    return result;
  };
  return { calls, fetch };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const now = () => new Date('2026-01-02T03:04:05.000Z');

describe('api client', () => {
  it('types each answer by its contract (checked by npm run typecheck)', async () => {
    const { fetch } = fakeFetch(() => json(200, { status: 200, payload: { address: [] } }));
    const client = createApiClient({ fetch, session: () => session, now });
    const answer = client.request('postalCodes', { step: 'datos_direccion_ocr_page', body: {} });
    expectTypeOf(answer).resolves.toEqualTypeOf<CallResponse<'postalCodes'>>();
    await expect(answer).resolves.toEqual({ status: 200, payload: { address: [] } });
  });

  it('sends the identity headers and returns the parsed body', async () => {
    const { calls, fetch } = fakeFetch(() => json(200, { status: 200, payload: [] }));
    const client = createApiClient({ fetch, session: () => session, now });
    await expect(client.request('grantorParams', { step: 'inicio' })).resolves.toEqual({ status: 200, payload: [] });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/v1/params');
    expect(calls[0]?.init.method).toBe('GET');
    expect(calls[0]?.init.headers).toMatchObject({ transaccion: session.uuidTrx, cliente: session.uuidUser, apikey: 'key-1' });
  });

  it("keeps the transaction token GET /v1/params issues and sends it only on the calls that read the person's data", async () => {
    const issued = new Response(JSON.stringify({ status: 200, payload: [] }), { status: 200, headers: { 'x-transaction-token': 'tok-1' } });
    const { calls, fetch } = fakeFetch((url) => (url === '/v1/params' ? issued : json(200, { status: 200, payload: {} })));
    let kept: string | null = null;
    const client = createApiClient({ fetch, session: () => ({ ...session, transactionToken: kept }), now, keepTransactionToken: (token) => (kept = token) });
    await client.request('grantorParams', { step: 'inicio' });
    expect(kept).toBe('tok-1');
    expect(calls[0]?.init.headers).not.toHaveProperty('x-transaction-token');
    await client.request('queryScore', { step: 'finalizado', params: { uuidUser: session.uuidUser!, uuidTrx: session.uuidTrx! } });
    await client.request('postalCodes', { step: 'datos_direccion_ocr_page', body: {} });
    expect(calls[1]?.init.headers).toMatchObject({ apikey: 'key-1', 'x-transaction-token': 'tok-1' });
    expect(calls[2]?.init.headers).not.toHaveProperty('x-transaction-token');
  });

  it('fills path parameters and can skip the identity headers', async () => {
    const { calls, fetch } = fakeFetch(() => json(200, { status: 200, payload: [] }));
    const client = createApiClient({ fetch, session: () => session, now });
    await client.request('publicGrantorParams', { step: 'pdf_token', params: { idOtorgante: 'a b' }, identify: false });
    expect(calls[0]?.url).toBe('/v1/public/params/a%20b');
    expect(calls[0]?.init.headers).not.toHaveProperty('apikey');
  });

  it('"API errors read response.data.message and status" and are "logged to the audit call as Error"', async () => {
    const { calls, fetch } = fakeFetch((url) =>
      url === '/v1/params' ? json(401, { status: 401, message: 'invalid api key', message_client: 'Verifica tu URL' }) : json(200, { status: 200, payload: { id: '1' } }),
    );
    const client = createApiClient({ fetch, session: () => session, now });
    const error = await client.request('grantorParams', { step: 'inicio' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: 'invalid api key', messageClient: 'Verifica tu URL', hasResponse: true });
    await settle();
    expect(calls.map((c) => c.url)).toEqual(['/v1/params', '/v1/celd_events']);
    const audit = JSON.parse(String(calls[1]?.init.body));
    expect(audit).toEqual({
      uuid_clt: session.uuidUser,
      uuid_trx: session.uuidTrx,
      uuid_oto: 'oto-1',
      apikey: 'key-1',
      paso: 'inicio',
      tipo: 'Error',
      dato: JSON.stringify({ ruta: '/v1/params', status: 401, message: 'invalid api key' }),
      finished: false,
      time_stamp: '2026-01-02T03:04:05.000Z',
    });
  });

  it('"otherwise the exception text", logged as Exception when no response arrives', async () => {
    const { calls, fetch } = fakeFetch((url) => (url === '/v1/params' ? new TypeError('Failed to fetch') : json(200, { status: 200, payload: {} })));
    const client = createApiClient({ fetch, session: () => session, now });
    const error = await client.request('grantorParams', { step: 'inicio' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: null, hasResponse: false, message: 'Failed to fetch' });
    await settle();
    const audit = JSON.parse(String(calls[1]?.init.body));
    expect(audit).toMatchObject({ tipo: 'Exception', paso: 'inicio' });
  });

  it('does not loop when the audit call itself fails', async () => {
    const { calls, fetch } = fakeFetch(() => json(500, { status: 500, message: 'down' }));
    const client = createApiClient({ fetch, session: () => session, now });
    await expect(client.request('updateCycle', { step: 'inicio', body: {} })).rejects.toBeInstanceOf(ApiError);
    await settle();
    await settle();
    expect(calls.map((c) => c.url)).toEqual(['/v1/update_cycle', '/v1/celd_events']);
    await expect(client.audit('x', 'Error', '{}')).rejects.toBeInstanceOf(ApiError);
    await settle();
    expect(calls).toHaveLength(3);
  });

  it('treats an envelope with a non-2xx status and a non-JSON body as errors', async () => {
    const { fetch } = fakeFetch((url) => (url === '/v1/params' ? json(200, { status: 404, message: 'grantor not found' }) : new Response('<html>', { status: 200 })));
    const client = createApiClient({ fetch, session: () => session, now });
    await expect(client.request('grantorParams', { step: 'inicio' })).rejects.toMatchObject({ status: 404, message: 'grantor not found' });
    await expect(client.request('updateCycle', { step: 'inicio', body: {} })).rejects.toMatchObject({ status: 200 });
  });

  it('does not audit aborted requests', async () => {
    const abort = new DOMException('aborted', 'AbortError');
    const { calls, fetch } = fakeFetch(() => abort);
    const client = createApiClient({ fetch, session: () => session, now });
    await expect(client.request('grantorParams', { step: 'inicio' })).rejects.toBe(abort);
    await settle();
    expect(calls).toHaveLength(1);
  });
});

describe('multipart uploads', () => {
  function ocrForm(): FormData {
    const form = new FormData();
    form.append('uuidUser', session.uuidUser ?? '');
    form.append('side', 'front');
    form.append('ine', new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), 'front.png');
    return form;
  }

  it('POSTs the form as is (the browser sets the multipart boundary) with the identity headers', async () => {
    const { calls, fetch } = fakeFetch(() => json(200, { status: 200, payload: { ocrData: { nombreCompleto: 'X' } } }));
    const client = createApiClient({ fetch, session: () => session, now });
    const form = ocrForm();
    const uploaded: string[] = [];
    await expect(client.postMultipart('ocr', form, { step: 'identificacion', onUploaded: () => uploaded.push('sent') })).resolves.toEqual({
      status: 200,
      payload: { ocrData: { nombreCompleto: 'X' } },
    });
    expect(calls[0]?.url).toBe('/v2/ocr');
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.body).toBe(form);
    expect(calls[0]?.init.headers).toMatchObject({ transaccion: session.uuidTrx, cliente: session.uuidUser, apikey: 'key-1' });
    expect(calls[0]?.init.headers).not.toHaveProperty('content-type');
    // Through fetch, the upload is known to be over when the answer arrives.
    expect(uploaded).toEqual(['sent']);
  });

  it('reports upload progress through the upload transport', async () => {
    const { calls, fetch } = fakeFetch(() => json(200, {}));
    const events: string[] = [];
    const client = createApiClient({
      fetch,
      session: () => session,
      now,
      upload: async (_url, _init, callbacks) => {
        callbacks.onProgress({ loaded: 50, total: 100 });
        callbacks.onProgress({ loaded: 100, total: 100 });
        callbacks.onUploaded();
        events.push('response');
        return json(200, { status: 200, payload: { ocrData: {} } });
      },
    });
    await client.postMultipart('ocr', ocrForm(), {
      step: 'identificacion',
      onUploadProgress: (p) => events.push(`progress ${p.loaded}/${p.total}`),
      onUploaded: () => events.push('uploaded'),
    });
    expect(events).toEqual(['progress 50/100', 'progress 100/100', 'uploaded', 'response']);
    expect(calls).toHaveLength(0);
  });

  it('reads the error envelope (429 with message_client) and audits it', async () => {
    const attempts = 'Has superado el número máximo de intentos para este proceso inténtalo nuevamente más tarde.';
    const { calls, fetch } = fakeFetch((url) =>
      url === '/v2/ocr' ? json(429, { status: 429, message: 'attempts exhausted', message_client: attempts }) : json(200, { status: 200, payload: { id: '1' } }),
    );
    const client = createApiClient({ fetch, session: () => session, now });
    const error = await client.postMultipart('ocr', ocrForm(), { step: 'identificacion' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, messageClient: attempts });
    await settle();
    expect(calls.map((c) => c.url)).toEqual(['/v2/ocr', '/v1/celd_events']);
  });

  it("sends extra headers (the INE call's Otorgante) and refuses multipart on a non-POST route", async () => {
    const { calls, fetch } = fakeFetch(() => json(200, { status: 200, payload: {} }));
    const client = createApiClient({ fetch, session: () => session, now });
    await client.request('ine', { step: 'resultados_identificacion', body: {}, headers: { Otorgante: 'oto-1' } });
    expect(calls[0]?.init.headers).toMatchObject({ Otorgante: 'oto-1', apikey: 'key-1' });
    await expect(client.postMultipart('grantorParams', new FormData(), { step: 'x' })).rejects.toThrow('not a POST');
  });

  it('sends a call the server answered 503 again after its Retry-After or the backoff, tells who listens, and gives up after the last retry', async () => {
    let answered = 0;
    const busy = () =>
      new Response(JSON.stringify({ status: 503, message: 'Busy: too many face videos are being checked; try again', message_client: 'x' }), { status: 503, headers: { 'retry-after': '5' } });
    const { calls, fetch } = fakeFetch(() => (++answered <= 2 ? busy() : json(200, { status: 200, payload: { ok: true } })));
    const waits: number[] = [];
    const told: unknown[] = [];
    const client = createApiClient({ fetch, session: () => session, now, sleep: async (ms) => void waits.push(ms), onBusy: (wait) => told.push(wait) });
    const form = new FormData();
    form.set('side', 'front');
    const seen: unknown[] = [];
    await expect(client.postMultipart('ocr', form, { step: 'identificacion', onBusy: (wait) => seen.push(wait) })).resolves.toEqual({ status: 200, payload: { ok: true } });
    expect(calls.map((c) => c.url)).toEqual(['/v2/ocr', '/v2/ocr', '/v2/ocr']);
    expect(calls[2]!.init.body).toBe(form);
    // Retry-After (5 s) is longer than the first backoffs (2 s, 4 s).
    expect(waits).toEqual([5_000, 5_000]);
    expect(seen).toEqual([
      { retry: 1, retriesLeft: 3, waitMs: 5_000 },
      { retry: 2, retriesLeft: 2, waitMs: 5_000 },
    ]);
    expect(told).toEqual([
      { retry: 1, retriesLeft: 3, waitMs: 5_000, route: 'ocr' },
      { retry: 2, retriesLeft: 2, waitMs: 5_000, route: 'ocr' },
    ]);

    const always = fakeFetch((url) => (url === '/v1/params' ? new Response(JSON.stringify({ status: 503, message: 'Busy' }), { status: 503 }) : json(200, { status: 200 })));
    const backoffs: number[] = [];
    const gives = createApiClient({ fetch: always.fetch, session: () => session, now, sleep: async (ms) => void backoffs.push(ms), busyRetry: { retries: 3, baseMs: 1_000, maxMs: 3_000 } });
    await expect(gives.request('grantorParams', { step: 'inicio' })).rejects.toMatchObject({ status: 503, message: 'Busy' });
    // Doubling from 1 s, capped at 3 s; the fourth answer is the error (and the audit call after it).
    expect(backoffs).toEqual([1_000, 2_000, 3_000]);
    expect(always.calls.filter((c) => c.url === '/v1/params')).toHaveLength(4);
  });

  it('stops waiting for a busy server when the call is aborted', async () => {
    const { calls, fetch } = fakeFetch(() => new Response('{}', { status: 503, headers: { 'retry-after': '1' } }));
    const controller = new AbortController();
    const client = createApiClient({ fetch, session: () => session, now, onBusy: () => controller.abort() });
    await expect(client.request('grantorParams', { step: 'inicio', signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toHaveLength(1);
  });
});
