import { randomUUID } from 'node:crypto';
import { errorTexts } from '@kyc/contracts';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { configErrorMessage } from './support/config-error.js';
import { recordingHandlers, type RealtimeRecording, type RecordingHandler } from '../src/features/realtime/index.js';
import { errorReply, maxChannelMessageBytes, parseChannelMessage } from '../src/features/realtime/protocol.js';
import { recordingKey } from '../src/features/realtime/recording-store.js';

function startMessage(overrides: Record<string, unknown> = {}) {
  const cliente = randomUUID();
  return { uuid: cliente, token: '1234', type: 'VIDEO_TOKEN', key: 'demo', transaccion: randomUUID(), cliente, ios: 'false', isMobile: true, ...overrides };
}

describe('parseChannelMessage', () => {
  it('recognises finish_record and ping, with surrounding whitespace', () => {
    expect(parseChannelMessage('finish_record')).toEqual({ kind: 'finish' });
    expect(parseChannelMessage(Buffer.from(' finish_record\n'))).toEqual({ kind: 'finish' });
    expect(parseChannelMessage('ping')).toEqual({ kind: 'ping' });
  });

  it('accepts the start message with flags as booleans or strings', () => {
    const message = startMessage({ isPassport: 'true', identificacion_pasaporte: false });
    const parsed = parseChannelMessage(JSON.stringify(message));
    expect(parsed).toEqual({ kind: 'start', message });
  });

  it('accepts the hologram without a token', () => {
    const parsed = parseChannelMessage(JSON.stringify(startMessage({ type: 'HOLOGRAMA', token: undefined })));
    expect(parsed.kind).toBe('start');
  });

  it('names what is wrong with a refused message', () => {
    expect(parseChannelMessage('{"uuid":')).toEqual({ kind: 'invalid', reason: "expected JSON, 'finish_record' or 'ping'" });
    expect(parseChannelMessage('FINISH')).toMatchObject({ kind: 'invalid' });
    expect(parseChannelMessage(JSON.stringify(startMessage({ type: 'SELFIE' })))).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^type: /) });
    expect(parseChannelMessage(JSON.stringify(startMessage({ transaccion: 'x' })))).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^transaccion: /) });
    expect(parseChannelMessage(JSON.stringify(startMessage({ key: '' })))).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^key: /) });
    expect(parseChannelMessage(JSON.stringify(startMessage({ ios: 'yes' })))).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^ios: /) });
    expect(parseChannelMessage(JSON.stringify(startMessage({ uuid: randomUUID() })))).toEqual({ kind: 'invalid', reason: 'uuid must equal cliente' });
    expect(parseChannelMessage('[]')).toMatchObject({ kind: 'invalid' });
    expect(parseChannelMessage('x'.repeat(maxChannelMessageBytes + 1))).toEqual({ kind: 'invalid', reason: `message larger than ${maxChannelMessageBytes} bytes` });
  });

  it('compares uuid and cliente case-insensitively', () => {
    const message = startMessage();
    expect(parseChannelMessage(JSON.stringify({ ...message, uuid: message.cliente.toUpperCase() })).kind).toBe('start');
  });
});

describe('errorReply', () => {
  it('has the error body of the HTTP calls as res', () => {
    expect(errorReply(400, 'bad')).toEqual({ status: 400, res: { status: 400, message: 'bad' } });
    expect(errorReply(500, 'down', errorTexts.serviceUnavailable)).toEqual({ status: 500, res: { status: 500, message: 'down', message_client: errorTexts.serviceUnavailable } });
  });
});

describe('recordingHandlers', () => {
  const recording = (type: string) => ({ message: { type } }) as unknown as RealtimeRecording;

  it('uses the given decisions and answers 500 "service unavailable" for the others', async () => {
    const decide: RecordingHandler = async () => ({ status: 200, res: { status: 200, payload: { match: true, liveness: true } } });
    const handlers = recordingHandlers({ VIDEO_TOKEN: decide });
    expect(handlers.VIDEO_TOKEN).toBe(decide);
    for (const type of ['VIDEO_TOKEN_PDF', 'HOLOGRAMA'] as const) {
      expect(await handlers[type](recording(type), {} as never)).toEqual({
        status: 500,
        res: { status: 500, message: `No decision is installed for ${type} recordings`, message_client: errorTexts.serviceUnavailable },
      });
    }
  });
});

describe('recordingKey', () => {
  it('files recordings by grantor, user and decision', () => {
    const parts = { grantorId: 'g', uuidUser: 'u', uuidTrx: 't', at: new Date('2026-11-26T03:00:00.123Z'), suffix: 'abcd' };
    expect(recordingKey({ ...parts, type: 'VIDEO_TOKEN' })).toBe('g/u/video_token/t-20261126T030000123Z-abcd.webm');
    expect(recordingKey({ ...parts, type: 'VIDEO_TOKEN_PDF' })).toBe('g/u/video_token/t-20261126T030000123Z-abcd.webm');
    expect(recordingKey({ ...parts, type: 'HOLOGRAMA' })).toBe('g/u/holograma/t-20261126T030000123Z-abcd.webm');
  });
});

describe('REALTIME_* configuration', () => {
  const message = configErrorMessage;

  it('has defaults and reads every variable', () => {
    expect(loadConfig({}).realtime).toEqual({ maxConnections: 16, connectionSeconds: 90, connectionsPerIp: 4, portRange: undefined, stunUrls: [] });
    expect(
      loadConfig({
        REALTIME_MAX_CONNECTIONS: '40',
        REALTIME_CONNECTION_SECONDS: '120',
        REALTIME_PORT_RANGE: '40000-40199',
        REALTIME_STUN_URLS: 'stun:stun.example.mx:3478, stun:10.0.0.2',
      }).realtime,
    ).toEqual({ maxConnections: 40, connectionSeconds: 120, connectionsPerIp: 4, portRange: [40000, 40199], stunUrls: ['stun:stun.example.mx:3478', 'stun:10.0.0.2'] });
  });

  it('names the variable of a bad value', () => {
    expect(message({ REALTIME_MAX_CONNECTIONS: '0' })).toBe('Invalid configuration: REALTIME_MAX_CONNECTIONS must be an integer 1-1000');
    expect(message({ REALTIME_CONNECTION_SECONDS: 'soon' })).toBe('Invalid configuration: REALTIME_CONNECTION_SECONDS must be an integer 1-3600');
    expect(message({ REALTIME_PORT_RANGE: '40000' })).toMatch(/^Invalid configuration: REALTIME_PORT_RANGE must be two ports LOW-HIGH/);
    expect(message({ REALTIME_PORT_RANGE: '40100-40000' })).toMatch(/REALTIME_PORT_RANGE/);
    expect(message({ REALTIME_STUN_URLS: 'turn:relay.example.mx' })).toBe('Invalid configuration: REALTIME_STUN_URLS must be comma-separated stun:host[:port] URLs');
  });
});
