import type { AppCaches } from '../../caches.js';
import { randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { issueTimestamp, localTsa } from './local-tsa.js';

/**
 * The RFC 3161 time-stamp of the evidence bundle's manifest (request and reply built and parsed with pkijs/asn1js).
 * - With TSA_URL: requested from that time-stamping authority (a NOM-151 accredited provider is such a TSA); the
 *   reply's status, nonce and message imprint are checked.
 * - Without: issued by the service's own local TSA (local-tsa.ts): a real RFC 3161 token that `openssl ts -verify`
 *   accepts with the local certificate, but NOT from an accredited provider and NOT a NOM-151 constancia.
 */
export interface BundleTimestamp {
  kind: 'rfc3161';
  source: 'tsa' | 'local';
  tsaUrl?: string;
  genTime: string;
  /** The TimeStampResp as received (or issued locally). */
  responseDer: Buffer;
  /** The TimeStampToken (CMS SignedData) inside it. */
  tokenDer: Buffer;
  /** PEM of the local TSA certificate (source local), to verify the token. */
  certificatePem?: string;
  notice?: string;
}

const sha256Oid = '2.16.840.1.101.3.4.2.1';
export const localNotice =
  'Sello de tiempo RFC 3161 emitido por la autoridad LOCAL de este servidor (certificado autofirmado): NO proviene de un prestador de servicios de certificación acreditado y NO es una constancia NOM-151.';

export function timestampRequest(hash: Buffer, nonce: Buffer): Buffer {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: sha256Oid }),
      hashedMessage: new asn1js.OctetString({ valueHex: new Uint8Array(hash).buffer }),
    }),
    nonce: new asn1js.Integer({ valueHex: new Uint8Array(nonce).buffer }),
    certReq: true,
  });
  return Buffer.from(request.toSchema().toBER(false));
}

/** Parses a TimeStampResp; throws unless granted for this hash and nonce. */
export function parseTimestampResponse(der: Buffer, hash: Buffer, nonce: Buffer): { genTime: string; tokenDer: Buffer } {
  const asn1 = asn1js.fromBER(new Uint8Array(der).buffer);
  if (asn1.offset === -1) throw new Error('the TSA reply is not DER');
  const response = new pkijs.TimeStampResp({ schema: asn1.result });
  const status = response.status.status;
  if (status !== 0 && status !== 1) throw new Error(`the TSA refused the request (PKIStatus ${status})`);
  const token = response.timeStampToken;
  if (!token) throw new Error('the TSA reply has no time-stamp token');
  const signed = new pkijs.SignedData({ schema: token.content });
  const content = signed.encapContentInfo.eContent;
  if (!content) throw new Error('the time-stamp token has no TSTInfo');
  const tstInfo = pkijs.TSTInfo.fromBER(content.getValue());
  const imprint = Buffer.from(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (!imprint.equals(hash)) throw new Error('the time-stamp token is for another hash');
  const tokenNonce = tstInfo.nonce ? Buffer.from(tstInfo.nonce.valueBlock.valueHexView) : undefined;
  if (tokenNonce && !stripZeros(tokenNonce).equals(stripZeros(nonce))) throw new Error('the time-stamp token carries another nonce');
  return { genTime: tstInfo.genTime.toISOString(), tokenDer: Buffer.from(token.toSchema().toBER(false)) };
}

function stripZeros(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i += 1;
  return bytes.subarray(i);
}

export async function rfc3161Timestamp(tsaUrl: string, hash: Buffer, timeoutMs = 15_000): Promise<BundleTimestamp> {
  // A positive nonce: the first bit clear.
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0] ?? 0) & 0x7f;
  const response = await fetch(tsaUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
    // A plain Uint8Array: a Buffer is not a BodyInit when the DOM lib is loaded too (the e2e typecheck).
    body: new Uint8Array(timestampRequest(hash, nonce)),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`the TSA answered HTTP ${response.status}`);
  const responseDer = Buffer.from(await response.arrayBuffer());
  const { genTime, tokenDer } = parseTimestampResponse(responseDer, hash, nonce);
  return { kind: 'rfc3161', source: 'tsa', tsaUrl, genTime, responseDer, tokenDer };
}

export async function localTimestamp(caches: AppCaches, dataDir: string, hash: Buffer, now: Date = new Date()): Promise<BundleTimestamp> {
  const tsa = await localTsa(caches, dataDir);
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0] ?? 0) & 0x7f;
  const responseDer = await issueTimestamp(tsa, hash, { nonce, now });
  const { genTime, tokenDer } = parseTimestampResponse(responseDer, hash, nonce);
  return { kind: 'rfc3161', source: 'local', genTime, responseDer, tokenDer, certificatePem: tsa.certificatePem, notice: localNotice };
}
