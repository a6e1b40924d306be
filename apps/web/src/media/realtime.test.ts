import { describe, expect, it } from 'vitest';
import { connectRealtime, finishSignal, parseReply, startMessage, type ChannelLike, type PeerLike, type RealtimeSignalling } from './realtime';

const iPhoneSafari = {
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
};
const code = { code: '4729', created: 'c', expire: 'e' };

describe('real-time start message (docs/flow.md §7)', () => {
  it('names every field of the data channel message', () => {
    const message = startMessage({
      uuidUser: 'u-1',
      uuidTrx: 't-1',
      apikey: 'k-1',
      code,
      type: 'VIDEO_TOKEN_PDF',
      service: 'videotoken-pdf',
      passport: true,
      platform: iPhoneSafari,
    });
    expect(message).toEqual({
      uuid: 'u-1',
      token: '4729',
      created: 'c',
      expire: 'e',
      bucket: 'videos',
      ios: true,
      mobilesafari: true,
      isIPad: false,
      type: 'VIDEO_TOKEN_PDF',
      isMobile: true,
      key: 'k-1',
      transaccion: 't-1',
      cliente: 'u-1',
      service: 'videotoken-pdf',
      side: '',
      isPassport: true,
      identificacion_pasaporte: 'true',
    });
  });

  it('Chrome on iOS is not mobile Safari; a desktop is not mobile', () => {
    const chromeIos = { userAgent: iPhoneSafari.userAgent.replace('Version/17.0', 'CriOS/120.0') };
    const base = { uuidUser: 'u', uuidTrx: 't', apikey: 'k', code, type: 'VIDEO_TOKEN' as const, service: 's', passport: false };
    expect(startMessage({ ...base, platform: chromeIos }).mobilesafari).toBe(false);
    const desktop = startMessage({ ...base, platform: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120' } });
    expect(desktop).toMatchObject({ ios: false, isMobile: false, isIPad: false, identificacion_pasaporte: 'false' });
  });
});

describe('real-time reply', () => {
  it('reads {status, res} with payload.match, liveness and message_client', () => {
    expect(parseReply(JSON.stringify({ status: 200, res: { payload: { match: true, liveness: true } } }))).toEqual({
      status: 200,
      res: { payload: { match: true, liveness: true } },
    });
    expect(parseReply(JSON.stringify({ status: 404, res: { message: 'Spoof detected', message_client: 'x' } }))).toEqual({
      status: 404,
      res: { message: 'Spoof detected', message_client: 'x' },
    });
  });

  it('ignores what is not a reply', () => {
    expect(parseReply('pong')).toBeNull();
    expect(parseReply(JSON.stringify({ res: {} }))).toBeNull();
    expect(parseReply(new ArrayBuffer(2))).toBeNull();
  });
});

/** A peer that behaves like the browser's for the calls connectRealtime makes, recording them. */
function fakePeer(log: string[]) {
  const channel: ChannelLike & { sent: string[] } = {
    label: 'ping-pong',
    readyState: 'connecting',
    onopen: null,
    onmessage: null,
    onclose: null,
    sent: [],
    send(data: string) {
      this.sent.push(data);
    },
  };
  const peer: PeerLike = {
    ondatachannel: null,
    iceGatheringState: 'new',
    localDescription: null,
    onicegatheringstatechange: null,
    onconnectionstatechange: null,
    async setRemoteDescription(d) {
      log.push(`remote:${d.type}`);
    },
    addTrack(track) {
      log.push(`track:${track.kind}`);
    },
    async createAnswer() {
      return { type: 'answer', sdp: 'v=0 answer' };
    },
    async setLocalDescription(d) {
      log.push(`local:${d.type}`);
      (peer as { localDescription: unknown }).localDescription = { type: 'answer', sdp: `${d.sdp} +candidates` };
      setTimeout(() => {
        (peer as { iceGatheringState: string }).iceGatheringState = 'complete';
        peer.onicegatheringstatechange?.();
      }, 1);
    },
    close() {
      log.push('close');
    },
  };
  return { peer, channel };
}

describe('connectRealtime', () => {
  it('answers the offer with the tracks, sends the start message when told, then finish_record, and reads the reply', async () => {
    const log: string[] = [];
    const { peer, channel } = fakePeer(log);
    const signalling: RealtimeSignalling = {
      async open() {
        log.push('POST /record/connections');
        return { id: 'c-1', localDescription: { type: 'offer', sdp: 'v=0 offer' } };
      },
      async answer(id, description) {
        log.push(`POST /record/connections/${id}/remote-description ${description.sdp}`);
        setTimeout(() => {
          peer.ondatachannel?.({ channel });
          (channel as { readyState: string }).readyState = 'open';
          channel.onopen?.();
        }, 1);
      },
      async close(id) {
        log.push(`DELETE /record/connections/${id}`);
      },
    };
    const tracks = [{ kind: 'video' }, { kind: 'audio' }] as MediaStreamTrack[];
    const stream = { getTracks: () => tracks } as unknown as MediaStream;
    const message = startMessage({ uuidUser: 'u', uuidTrx: 't', apikey: 'k', code, type: 'VIDEO_TOKEN', service: 's', passport: false, platform: { userAgent: '' } });

    const session = await connectRealtime({ stream, signalling, message, createPeer: () => peer });
    expect(log).toEqual(['POST /record/connections', 'remote:offer', 'track:video', 'track:audio', 'local:answer', 'POST /record/connections/c-1/remote-description v=0 answer +candidates']);
    expect(channel.sent).toEqual([]);
    session.start();
    expect(JSON.parse(channel.sent[0] ?? '')).toEqual(message);
    session.finish();
    expect(channel.sent[1]).toBe(finishSignal);
    channel.onmessage?.({ data: 'ping' });
    channel.onmessage?.({ data: JSON.stringify({ status: 200, res: { payload: { match: true, liveness: true } } }) });
    await expect(session.reply).resolves.toMatchObject({ status: 200, res: { payload: { match: true } } });
    session.close();
    session.close();
    expect(log.slice(-2)).toEqual(['close', 'DELETE /record/connections/c-1']);
  });

  it('rejects the reply when the channel closes first, and gives up when no channel opens', async () => {
    const log: string[] = [];
    const { peer, channel } = fakePeer(log);
    let deliver = true;
    const signalling: RealtimeSignalling = {
      open: async () => ({ id: 'c-2', localDescription: { type: 'offer', sdp: 'o' } }),
      answer: async () => {
        if (!deliver) return;
        setTimeout(() => {
          (channel as { readyState: string }).readyState = 'open';
          peer.ondatachannel?.({ channel });
        }, 1);
      },
      close: async (id) => {
        log.push(`DELETE ${id}`);
      },
    };
    const stream = { getTracks: () => [] } as unknown as MediaStream;
    const message = startMessage({ uuidUser: 'u', uuidTrx: 't', apikey: 'k', code, type: 'VIDEO_TOKEN', service: 's', passport: false, platform: { userAgent: '' } });
    const session = await connectRealtime({ stream, signalling, message, createPeer: () => peer });
    channel.onclose?.();
    await expect(session.reply).rejects.toThrow(/closed before the reply/);

    deliver = false;
    const second = fakePeer(log);
    await expect(connectRealtime({ stream, signalling, message, createPeer: () => second.peer, setupTimeoutMs: 20 })).rejects.toThrow(/data channel/);
    expect(log).toContain('DELETE c-2');
  });
});
