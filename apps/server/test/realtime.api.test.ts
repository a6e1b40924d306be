import { randomUUID } from 'node:crypto';
import { errorTexts, realtimeChannel } from '@kyc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoKey, trxHeaders } from './support/fixtures.js';
import { acceptConsents, journeyConsents, usableFront } from './support/journey.js';
import { answer, connectClient, createConnection, udpSockets } from './support/realtime-client.js';

function startMessage(overrides: Record<string, unknown> = {}) {
  const cliente = randomUUID();
  return {
    uuid: cliente,
    token: '4729',
    bucket: 'videos',
    ios: false,
    mobilesafari: false,
    isIPad: false,
    type: 'VIDEO_TOKEN',
    isMobile: false,
    key: demoKey,
    transaccion: randomUUID(),
    cliente,
    service: 'videotoken-embedding',
    side: 'front',
    isPassport: false,
    identificacion_pasaporte: 'false',
    ...overrides,
  };
}

/** The start message fields naming the connection's own transaction. */
const ownTrx = (offer: { headers: { transaccion: string; cliente: string } }) => ({ transaccion: offer.headers.transaccion, cliente: offer.headers.cliente, uuid: offer.headers.cliente });

describe.each(engines)('real-time media server ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  }, 60_000);
  afterAll(async () => t?.close());

  /** The steps before the face video, recorded (domain/journey-order.ts). */
  const afterConsents = async (headers: { transaccion: string; cliente: string }) => {
    await acceptConsents(t.app, { ...headers, apikey: demoKey }, journeyConsents);
    await usableFront(t, headers);
  };

  it('offers a video, an audio and a data channel with every candidate gathered', async () => {
    const { id, localDescription } = await createConnection(t);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(localDescription.type).toBe('offer');
    const sdp = localDescription.sdp;
    expect(sdp).toMatch(/^m=video .*$/m);
    expect(sdp).toMatch(/^m=audio .*$/m);
    expect(sdp).toMatch(/^m=application .*$/m);
    expect(sdp).toMatch(/a=rtpmap:\d+ VP8\/90000/);
    expect(sdp).toMatch(/a=rtpmap:\d+ opus\/48000\/2/i);
    expect(sdp.match(/^a=recvonly$/gm)).toHaveLength(2);
    expect(sdp).toMatch(/^a=candidate:.* 127\.0\.0\.1 \d+ typ host/m);
    expect(sdp).toMatch(/^a=group:BUNDLE /m);
    expect((await t.app.inject({ method: 'DELETE', url: `/record/connections/${id}` })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown connection and 400 for a malformed answer', async () => {
    const unknown = await answer(t, randomUUID(), { type: 'answer', sdp: 'v=0\r\n' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 404, message: expect.stringContaining('Unknown real-time connection') });
    expect((await t.app.inject({ method: 'DELETE', url: `/record/connections/${randomUUID()}` })).statusCode).toBe(404);

    const { id } = await createConnection(t);
    const missing = await answer(t, id, { type: 'answer' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/sdp is missing/);
    expect((await answer(t, id, { type: 'offer', sdp: 'v=0\r\n' })).statusCode).toBe(400);
    const notSdp = await answer(t, id, { type: 'answer', sdp: 'hello' });
    expect(notSdp.statusCode).toBe(400);
    expect(notSdp.json().message).toMatch(/not an SDP answer/);
    const broken = await t.app.inject({
      method: 'POST',
      url: `/record/connections/${id}/remote-description`,
      headers: { 'content-type': 'application/json' },
      payload: '{"type":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ status: 400, message: 'Malformed JSON body' });
    // Path parameters may be up to 4096 characters (result-link tokens); the id's own schema caps it at 100.
    const tooLong = await t.app.inject({ method: 'DELETE', url: `/record/connections/${'x'.repeat(101)}` });
    expect(tooLong.statusCode).toBe(400);

    expect((await t.app.inject({ method: 'DELETE', url: `/record/connections/${id}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/record/connections/${id}` })).statusCode).toBe(404);
    expect((await answer(t, id, { type: 'answer', sdp: 'v=0\r\n' })).statusCode).toBe(404);
  });

  it('speaks the ping-pong protocol: pong, 400 for bad messages, 401 for a wrong key', async () => {
    const offer = await createConnection(t);
    const client = await connectClient(t, offer, { sendTracks: false });
    try {
      expect(await client.send(realtimeChannel.ping)).toBe(realtimeChannel.pong);

      const badJson = JSON.parse(await client.send('{"uuid": '));
      expect(badJson).toMatchObject({ status: 400, res: { status: 400, message: expect.stringMatching(/expected JSON/) } });

      const badField = JSON.parse(await client.send(JSON.stringify(startMessage({ type: 'SELFIE' }))));
      expect(badField).toMatchObject({ status: 400, res: { status: 400, message: expect.stringMatching(/^Invalid message: type/) } });

      const otherUser = JSON.parse(await client.send(JSON.stringify(startMessage({ uuid: randomUUID() }))));
      expect(otherUser).toMatchObject({ status: 400, res: { message: 'Invalid message: uuid must equal cliente' } });

      const early = JSON.parse(await client.send(realtimeChannel.finish));
      expect(early).toMatchObject({ status: 400, res: { message: expect.stringMatching(/before the start message/) } });

      const wrongKey = JSON.parse(await client.send(JSON.stringify(startMessage({ key: 'not-a-key' }))));
      expect(wrongKey).toEqual({ status: 401, res: { status: 401, message: 'Invalid api key', message_client: errorTexts.badUrl } });

      // The connection's own transaction only.
      const otherTrx = JSON.parse(await client.send(JSON.stringify(startMessage())));
      expect(otherTrx).toMatchObject({ status: 403, res: { message: 'The start message names another transaction than its connection' } });

      // Authenticated and in the journey's order, but this client negotiated no media to send.
      await afterConsents(offer.headers);
      const noMedia = JSON.parse(await client.send(JSON.stringify(startMessage(ownTrx(offer)))));
      expect(noMedia).toMatchObject({ status: 400, res: { message: 'Invalid message: no media track was negotiated' } });
    } finally {
      await client.close();
      await t.app.inject({ method: 'DELETE', url: `/record/connections/${offer.id}` });
    }
  });

  it('records only after the start message is authenticated, and answers 400 when no media arrived', async () => {
    const offer = await createConnection(t);
    const client = await connectClient(t, offer, { sendTracks: true });
    await afterConsents(offer.headers);
    try {
      const message = startMessage(ownTrx(offer));
      client.sendOnly(JSON.stringify(message));
      const finished = JSON.parse(await client.send(realtimeChannel.finish));
      expect(finished).toEqual({
        status: 400,
        res: { status: 400, message: 'No video or audio was received before finish_record', message_client: errorTexts.watchdog },
      });
      const again = JSON.parse(await client.send(realtimeChannel.finish));
      expect(again).toMatchObject({ status: 400, res: { message: 'Invalid message: the recording is already finished' } });
      // Nothing was stored for the transaction.
      const events = await t.app.inject({ method: 'GET', url: `/v1/transactions/${message.transaccion}/events`, headers: { authorization: 'Bearer demo-secret' } });
      const kinds = (events.json().payload.evidence ?? []).map((e: { kind: string }) => e.kind);
      expect(kinds.filter((k: string) => k !== 'consentimiento' && k !== 'ocr_frente')).toEqual([]);
    } finally {
      await client.close();
      await t.app.inject({ method: 'DELETE', url: `/record/connections/${offer.id}` });
    }
  }, 20_000);
});

describe('real-time media server limits', () => {
  const engine = engines[0]!;

  it('refuses a connection without a valid transaction of a grantor: 16 unauthenticated calls open nothing', async () => {
    const t = await startTestApp(engine, { REALTIME_MAX_CONNECTIONS: '2', RATE_LIMITS: 'off' });
    try {
      for (let i = 0; i < 16; i++) {
        const bare = await t.app.inject({ method: 'POST', url: '/record/connections' });
        expect(bare.statusCode).toBe(400);
        expect(bare.json().message).toMatch(/header transaccion is missing|header/);
      }
      const noKey = await t.app.inject({ method: 'POST', url: '/record/connections', headers: { transaccion: randomUUID(), cliente: randomUUID() } });
      expect(noKey.statusCode).toBe(401);
      const wrongKey = await t.app.inject({ method: 'POST', url: '/record/connections', headers: trxHeaders('not-a-key') });
      expect(wrongKey.json()).toMatchObject({ status: 401, message: 'Invalid api key', message_client: errorTexts.badUrl });
      const badLink = await t.app.inject({ method: 'POST', url: '/record/connections', headers: { transaccion: randomUUID(), cliente: randomUUID(), 'x-consumer-custom-id': 'a.b.c' } });
      expect(badLink.statusCode).toBeGreaterThanOrEqual(400);
      expect(badLink.statusCode).toBeLessThan(500);
      // Another user's transaction.
      const owned = trxHeaders();
      await createConnection(t, owned);
      expect((await t.app.inject({ method: 'POST', url: '/record/connections', headers: { ...owned, cliente: randomUUID() } })).statusCode).toBe(403);
      // The server still has room for a customer.
      await createConnection(t);
    } finally {
      await t.close();
    }
  });

  it('keeps one live connection per transaction: a second one replaces the first', async () => {
    const t = await startTestApp(engine, { REALTIME_MAX_CONNECTIONS: '2' });
    try {
      const headers = trxHeaders();
      const first = await createConnection(t, headers);
      const second = await createConnection(t, headers);
      expect(second.id).not.toBe(first.id);
      expect((await answer(t, first.id, { type: 'answer', sdp: 'v=0\r\n' })).statusCode).toBe(404);
      // Replacing frees the slot: with a capacity of 2, the same transaction can reconnect again and again.
      for (let i = 0; i < 3; i++) await createConnection(t, headers);
      await createConnection(t);
      expect((await t.app.inject({ method: 'DELETE', url: `/record/connections/${second.id}` })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses more than REALTIME_CONNECTIONS_PER_IP live connections from one client address with 429', async () => {
    const t = await startTestApp(engine, { REALTIME_CONNECTIONS_PER_IP: '2', RATE_LIMITS: 'off' });
    try {
      await createConnection(t);
      const second = await createConnection(t);
      const third = await t.app.inject({ method: 'POST', url: '/record/connections', headers: trxHeaders() });
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({ status: 429, message: expect.stringContaining('REALTIME_CONNECTIONS_PER_IP') });
      const elsewhere = await t.app.inject({ method: 'POST', url: '/record/connections', headers: trxHeaders(), remoteAddress: '10.9.9.9' });
      expect(elsewhere.statusCode).toBe(200);
      expect((await t.app.inject({ method: 'DELETE', url: `/record/connections/${second.id}` })).statusCode).toBe(200);
      await createConnection(t);
    } finally {
      await t.close();
    }
  });

  it('refuses connections beyond REALTIME_MAX_CONNECTIONS with 503 and frees a slot on close', async () => {
    const t = await startTestApp(engine, { REALTIME_MAX_CONNECTIONS: '2' });
    try {
      const first = await createConnection(t);
      await createConnection(t);
      const refused = await t.app.inject({ method: 'POST', url: '/record/connections', headers: trxHeaders() });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ status: 503, message_client: errorTexts.serviceUnavailable });
      expect((await t.app.inject({ method: 'DELETE', url: `/record/connections/${first.id}` })).statusCode).toBe(200);
      await createConnection(t);
    } finally {
      await t.close();
    }
  });

  it('expires a connection REALTIME_CONNECTION_SECONDS after it was created', async () => {
    const t = await startTestApp(engine, { REALTIME_CONNECTION_SECONDS: '1' });
    try {
      const { id } = await createConnection(t);
      await new Promise((resolve) => setTimeout(resolve, 1300));
      expect((await t.app.inject({ method: 'DELETE', url: `/record/connections/${id}` })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('binds its ICE sockets inside REALTIME_PORT_RANGE', async () => {
    const t = await startTestApp(engine, { REALTIME_PORT_RANGE: '41000-41019' });
    try {
      for (let i = 0; i < 3; i++) {
        const { localDescription } = await createConnection(t);
        const ports = [...localDescription.sdp.matchAll(/^a=candidate:\S+ \d+ udp \d+ \S+ (\d+) typ host/gm)].map((m) => Number(m[1]));
        expect(ports.length).toBeGreaterThan(0);
        for (const port of ports) expect(port >= 41000 && port <= 41019, `port ${port}`).toBe(true);
      }
    } finally {
      await t.close();
    }
  });

  it('closes every peer connection (and its UDP sockets) when the app closes', async () => {
    const before = udpSockets();
    const t = await startTestApp(engine);
    try {
      await createConnection(t);
      await createConnection(t);
      expect(udpSockets()).toBeGreaterThan(before);
    } finally {
      await t.close();
    }
    // werift closes its sockets asynchronously after close() resolves.
    for (let i = 0; i < 50 && udpSockets() > before; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(udpSockets()).toBe(before);
  });
});
