import type { AppCaches } from '../../caches.js';
import { randomBytes, randomUUID, webcrypto } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * A random serial number as DER wants it: positive (top bit clear) and minimal (first byte not zero), so its INTEGER
 * needs no padding. With only the top bit cleared, one serial in 512 started 0x00 0x0…–0x7…, which DER forbids
 * (openssl: 'illegal padding') and the time-stamp or certificate could not be verified.
 */
export function positiveSerial(bytes: number): Buffer {
  const serial = randomBytes(bytes);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  return serial;
}

/**
 * An RFC 3161 time-stamping authority inside the service, for the embedded mode: a P-256 key and a self-signed
 * certificate (extended key usage timeStamping) generated once under DATA_DIR/keys/tsa.json, issuing real TimeStampResp /
 * TimeStampToken structures (CMS SignedData over a TSTInfo) that `openssl ts -verify` accepts with that certificate.
 * Its certificate is NOT issued by an accredited provider: the token is not a NOM-151 certified constancia.
 */
const oids = {
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
};

export const localTsaName = 'kyc-onboarding TSA local (NO certificada, no NOM-151)';

type CryptoKey = webcrypto.CryptoKey;
const crypto = webcrypto;
// Typed through pkijs's own parameter: with the DOM lib (the e2e typecheck) the global Crypto differs from Node's.
const engine = new pkijs.CryptoEngine({ name: 'node', crypto: crypto as unknown as pkijs.CryptoEngineParameters['crypto'] });
pkijs.setEngine('node', engine);

const algorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const;

export interface LocalTsa {
  certificate: pkijs.Certificate;
  certificateDer: Buffer;
  /** PEM of the certificate, for `openssl ts -verify -CAfile`. */
  certificatePem: string;
  privateKey: CryptoKey;
  /** Policy OID of this TSA: a UUID arc (2.25), so no registration is claimed. */
  policy: string;
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function pem(label: string, der: Buffer): string {
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

function uuidOid(): string {
  return `2.25.${BigInt(`0x${randomUUID().replaceAll('-', '')}`).toString(10)}`;
}

async function createTsa(): Promise<{ keyDer: Buffer; certDer: Buffer; policy: string }> {
  const keys = (await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ valueHex: toArrayBuffer(positiveSerial(12)) });
  const name = [
    new pkijs.AttributeTypeAndValue({ type: oids.commonName, value: new asn1js.Utf8String({ value: localTsaName }) }),
    new pkijs.AttributeTypeAndValue({ type: oids.organization, value: new asn1js.Utf8String({ value: 'kyc-onboarding' }) }),
  ];
  cert.subject.typesAndValues.push(...name);
  cert.issuer.typesAndValues.push(...name);
  const now = new Date();
  cert.notBefore.value = new Date(now.getTime() - 60_000);
  cert.notAfter.value = new Date(now.getTime() + 10 * 365 * 24 * 3_600_000);
  cert.extensions = [
    new pkijs.Extension({
      extnID: oids.extKeyUsage,
      critical: true,
      extnValue: new pkijs.ExtKeyUsage({ keyPurposes: [oids.timeStamping] }).toSchema().toBER(false),
    }),
    new pkijs.Extension({
      extnID: oids.keyUsage,
      critical: true,
      // digitalSignature | nonRepudiation
      extnValue: new asn1js.BitString({ valueHex: new Uint8Array([0xc0]).buffer, unusedBits: 6 }).toBER(false),
    }),
  ];
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey, engine);
  await cert.sign(keys.privateKey, 'SHA-256', engine);
  const keyDer = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { keyDer, certDer: Buffer.from(cert.toSchema().toBER(false)), policy: uuidOid() };
}

function readTsaFile(file: string): { keyDer: Buffer; certDer: Buffer; policy: string } {
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { key: string; certificate: string; policy: string };
  return { keyDer: Buffer.from(stored.key, 'base64'), certDer: Buffer.from(stored.certificate, 'base64'), policy: stored.policy };
}

/** The local TSA of this DATA_DIR (loadLocalTsa), loaded once per app and kept in its caches. */
export function localTsa(caches: AppCaches, dataDir: string): Promise<LocalTsa> {
  const byFile = caches.slot('results.localTsa', () => new Map<string, Promise<LocalTsa>>());
  let pending = byFile.get(dataDir);
  if (!pending) {
    pending = loadLocalTsa(dataDir);
    byFile.set(dataDir, pending);
    pending.catch(() => byFile.delete(dataDir));
  }
  return pending;
}

/**
 * The local TSA of this DATA_DIR, created on first use as one file, keys/tsa.json (mode 0600: it holds the private
 * key). Created under a temporary name and linked into place, which fails if another process won the race: then
 * that process's TSA is used.
 */
export async function loadLocalTsa(dataDir: string): Promise<LocalTsa> {
  const file = path.join(dataDir, 'keys', 'tsa.json');
  if (!existsSync(file)) {
    const created = await createTsa();
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temp, JSON.stringify({ key: created.keyDer.toString('base64'), certificate: created.certDer.toString('base64'), policy: created.policy }), { mode: 0o600 });
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temp);
    }
  }
  const stored = readTsaFile(file);
  const privateKey = await crypto.subtle.importKey('pkcs8', stored.keyDer, algorithm, false, ['sign']);
  const certificate = pkijs.Certificate.fromBER(toArrayBuffer(stored.certDer));
  return { certificate, certificateDer: stored.certDer, certificatePem: pem('CERTIFICATE', stored.certDer), privateKey, policy: stored.policy };
}

/** A TimeStampResp (DER) granting a time-stamp for the SHA-256 `hash`, with the request's nonce when given. */
export async function issueTimestamp(tsa: LocalTsa, hash: Buffer, options: { nonce?: Buffer; now?: Date } = {}): Promise<Buffer> {
  const serial = positiveSerial(16);
  const genTime = options.now ?? new Date();
  const tstInfo = new pkijs.TSTInfo({
    version: 1,
    policy: tsa.policy,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: oids.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(hash) }),
    }),
    serialNumber: new asn1js.Integer({ valueHex: toArrayBuffer(serial) }),
    genTime,
    ordering: false,
    ...(options.nonce ? { nonce: new asn1js.Integer({ valueHex: toArrayBuffer(options.nonce) }) } : {}),
  });
  const tstDer = Buffer.from(tstInfo.toSchema().toBER(false));
  const digest = Buffer.from(await crypto.subtle.digest('SHA-256', tstDer));
  const certHash = Buffer.from(await crypto.subtle.digest('SHA-256', tsa.certificateDer));
  // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }; ESSCertIDv2 with the default SHA-256 omits hashAlgorithm.
  const signingCertificateV2 = new asn1js.Sequence({
    value: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: toArrayBuffer(certHash) })] })] })],
  });
  const signedData = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: oids.tstInfo,
      eContent: new asn1js.OctetString({ valueHex: toArrayBuffer(tstDer) }),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: tsa.certificate.issuer, serialNumber: tsa.certificate.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({ type: oids.contentType, values: [new asn1js.ObjectIdentifier({ value: oids.tstInfo })] }),
            new pkijs.Attribute({ type: oids.messageDigest, values: [new asn1js.OctetString({ valueHex: toArrayBuffer(digest) })] }),
            new pkijs.Attribute({ type: oids.signingCertificateV2, values: [signingCertificateV2] }),
          ],
        }),
      }),
    ],
    certificates: [tsa.certificate],
  });
  await signedData.sign(tsa.privateKey, 0, 'SHA-256', undefined, engine);
  const token = new pkijs.ContentInfo({ contentType: oids.signedData, content: signedData.toSchema(true) });
  const response = new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: 0 }), timeStampToken: token });
  return Buffer.from(response.toSchema().toBER(false));
}
