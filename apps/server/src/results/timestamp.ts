import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as asn1js from 'asn1js';
import { CompactSign, exportJWK } from 'jose';
import * as pkijs from 'pkijs';

/**
 * The time-stamp of the evidence bundle's manifest.
 * - With TSA_URL: an RFC 3161 request (pkijs/asn1js) to that time-stamping authority; the reply's status, nonce and
 *   message imprint are checked and its TimeStampToken (DER) is kept. A NOM-151 certified provider is such a TSA.
 * - Without: a JWS (EdDSA, Ed25519 key generated under DATA_DIR/keys) over the manifest hash and the local time.
 *   It is NOT an RFC 3161 token and NOT a NOM-151 certified time-stamp: it proves only that this server signed
 *   the hash at that time, and says so in its payload.
 */
export type BundleTimestamp =
  | { kind: 'rfc3161'; tsaUrl: string; genTime: string; tokenDer: Buffer; certified: true }
  | { kind: 'local-jws'; genTime: string; jws: string; publicJwk: Record<string, unknown>; certified: false; notice: string };

const sha256Oid = '2.16.840.1.101.3.4.2.1';
export const localNotice =
  'Sello de tiempo LOCAL firmado por este servidor: NO es un sello RFC 3161 de un prestador de servicios de certificación ni una constancia NOM-151.';

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
  const tstInfo = pkijs.TSTInfo.fromBER(content.valueBlock.valueHexView);
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
    body: timestampRequest(hash, nonce),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`the TSA answered HTTP ${response.status}`);
  const { genTime, tokenDer } = parseTimestampResponse(Buffer.from(await response.arrayBuffer()), hash, nonce);
  return { kind: 'rfc3161', tsaUrl, genTime, tokenDer, certified: true };
}

const keyCache = new Map<string, KeyObject>();

/** The local Ed25519 signing key, generated once at DATA_DIR/keys/timestamp.key (mode 0600). */
export function localTimestampKey(dataDir: string): KeyObject {
  const file = path.join(dataDir, 'keys', 'timestamp.key');
  const cached = keyCache.get(file);
  if (cached) return cached;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = createPrivateKey(readFileSync(file));
  keyCache.set(file, key);
  return key;
}

export async function localTimestamp(dataDir: string, hash: Buffer, now: Date = new Date()): Promise<BundleTimestamp> {
  const key = localTimestampKey(dataDir);
  const genTime = now.toISOString();
  const payload = { hashAlgorithm: 'SHA-256', hashedMessage: hash.toString('hex'), genTime, tsa: 'local', certified: false, notice: localNotice };
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'EdDSA', typ: 'kyc-timestamp+jws' })
    .sign(key);
  const publicJwk = (await exportJWK(createPublicKey(key))) as Record<string, unknown>;
  return { kind: 'local-jws', genTime, jws, publicJwk, certified: false, notice: localNotice };
}
