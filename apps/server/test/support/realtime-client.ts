import { expect } from 'vitest';
import { MediaStreamTrack, RTCPeerConnection, useOPUS, useVP8, type RTCDataChannel } from 'werift';
import type { TestApp } from './app.js';
import { trxHeaders } from './fixtures.js';

export type Offer = { id: string; localDescription: { type: string; sdp: string } };

/** The transaction headers a connection is opened for (the demo key and fresh ids unless given). */
export type ConnectionHeaders = { transaccion: string; cliente: string; apikey?: string; 'x-consumer-custom-id'?: string };

/** Opens a connection for `headers`' transaction; the offer carries them back, for the start message. */
export async function createConnection(t: TestApp, headers: ConnectionHeaders = trxHeaders()): Promise<Offer & { headers: ConnectionHeaders }> {
  const res = await t.app.inject({ method: 'POST', url: '/record/connections', headers });
  expect(res.statusCode, res.body).toBe(200);
  return { ...(res.json() as Offer), headers };
}

export async function answer(t: TestApp, id: string, body: unknown) {
  return t.app.inject({ method: 'POST', url: `/record/connections/${id}/remote-description`, payload: body as object });
}

export function udpSockets(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'UDPWrap').length;
}

/**
 * A real WebRTC peer on the test's side (werift as the browser would be): answers the offer, optionally offering to
 * send both tracks (without ever sending a packet), and hands back the server's 'ping-pong' channel.
 */
export async function connectClient(t: TestApp, offer: Offer, options: { sendTracks: boolean }) {
  const client = new RTCPeerConnection({ iceUseIpv6: false, iceAdditionalHostAddresses: ['127.0.0.1'], codecs: { video: [useVP8()], audio: [useOPUS()] } });
  const channel = new Promise<RTCDataChannel>((resolve) => client.onDataChannel.subscribe(resolve));
  await client.setRemoteDescription({ type: 'offer', sdp: offer.localDescription.sdp });
  if (options.sendTracks) {
    for (const transceiver of client.getTransceivers()) {
      transceiver.setDirection('sendonly');
      transceiver.sender.registerTrack(new MediaStreamTrack({ kind: transceiver.kind as 'video' | 'audio' }));
    }
  }
  await client.setLocalDescription(await client.createAnswer());
  await new Promise<void>((resolve) => {
    if (client.iceGatheringState === 'complete') return resolve();
    client.iceGatheringStateChange.subscribe((state) => state === 'complete' && resolve());
  });
  const res = await answer(t, offer.id, { type: 'answer', sdp: client.localDescription?.sdp });
  expect(res.statusCode, res.body).toBe(200);
  const dc = await channel;
  if (dc.readyState !== 'open') await new Promise<void>((resolve) => dc.stateChanged.subscribe((s) => s === 'open' && resolve()));
  const replies: string[] = [];
  const waiters: ((text: string) => void)[] = [];
  dc.onMessage.subscribe((data) => {
    const text = data.toString();
    const waiter = waiters.shift();
    if (waiter) waiter(text);
    else replies.push(text);
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const queued = replies.shift();
      if (queued !== undefined) return resolve(queued);
      const timer = setTimeout(() => reject(new Error('no reply on the data channel within 10 s')), 10_000);
      waiters.push((text) => {
        clearTimeout(timer);
        resolve(text);
      });
    });
  return {
    async send(text: string): Promise<string> {
      dc.send(text);
      return next();
    },
    sendOnly(text: string) {
      dc.send(text);
    },
    close: () => client.close(),
  };
}
