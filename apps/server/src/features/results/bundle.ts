import { createHash } from 'node:crypto';
import yazl from 'yazl';
import type { Config } from '../../config.js';
import { compactTimestamp } from '../../domain/evidence.js';
import { evidenceKind } from '../../domain/evidence-kinds.js';
import { addEvidence, listEvidenceWithPayload } from '../../store/evidence.js';
import { generateDocuments, latestDocuments, type DocumentsDeps, type TransactionRef } from './documents-service.js';
import { localTimestamp, rfc3161Timestamp, type BundleTimestamp } from './timestamp.js';

/** Evidence kind of the stored bundle (the zip itself is the blob). */
export const bundleEvidenceKind = 'paquete_nom151';

export interface BundleManifest {
  uuidTrx: string;
  uuidUser: string;
  customId: string;
  createdAt: string;
  hashAlgorithm: 'SHA-256';
  files: { path: string; sha256: string; size: number; kind: string }[];
}

export interface BuiltBundle {
  zip: Buffer;
  manifest: BundleManifest;
  manifestSha256: string;
  timestamp: BundleTimestamp;
}

const extensionOf: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'video/webm': 'webm',
  'video/mp4': 'mp4',
};

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function zipOf(entries: { path: string; data: Buffer }[], mtime: Date): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const entry of entries) zip.addBuffer(entry.data, entry.path, { mtime, compress: !/\.(pdf|png|jpg|webp|webm|mp4)$/.test(entry.path) });
    const chunks: Buffer[] = [];
    zip.outputStream
      .on('data', (c: Buffer) => chunks.push(c))
      .on('error', reject)
      .on('end', () => resolve(Buffer.concat(chunks)));
    zip.end();
  });
}

/**
 * The evidence bundle of docs/flow.md §7 nom_151: the documents and every evidence file of the transaction (decrypted),
 * the data the request carried, a manifest with the SHA-256 of each file, and a time-stamp over the manifest.
 */
export async function buildBundle(
  deps: DocumentsDeps & { config: Pick<Config, 'tsaUrl' | 'dataDir'> },
  trx: TransactionRef,
  request: { customId: string; body: Record<string, unknown> },
  now: Date = new Date(),
): Promise<BuiltBundle> {
  let documents = await latestDocuments(deps, trx.uuidTrx);
  if (documents.size === 0) {
    await generateDocuments(deps, trx, now);
    documents = await latestDocuments(deps, trx.uuidTrx);
  }
  const entries: { path: string; data: Buffer; kind: string }[] = [];
  for (const doc of documents.values()) {
    entries.push({ path: `documentos/${doc.name}.pdf`, data: (await deps.blobs.get(doc.blobKey)).buffer, kind: evidenceKind.document });
  }
  const records = await listEvidenceWithPayload(deps.db, deps.cipher, trx.uuidTrx);
  const summary: unknown[] = [];
  for (const record of records) {
    if (record.kind === evidenceKind.document || record.kind === bundleEvidenceKind) continue;
    summary.push({ id: record.id, kind: record.kind, sha256: record.sha256, createdAt: record.createdAt, payload: record.payload ?? null });
    if (!record.blobKey) continue;
    const blob = await deps.blobs.get(record.blobKey);
    entries.push({ path: `evidencias/${record.id}-${record.kind}.${extensionOf[blob.contentType] ?? 'bin'}`, data: blob.buffer, kind: record.kind });
  }
  entries.push({ path: 'evidencias/registros.json', data: Buffer.from(JSON.stringify(summary, null, 2)), kind: 'registros' });
  entries.push({ path: 'solicitud.json', data: Buffer.from(JSON.stringify(request.body, null, 2)), kind: 'solicitud' });

  const manifest: BundleManifest = {
    uuidTrx: trx.uuidTrx,
    uuidUser: trx.uuidUser,
    customId: request.customId,
    createdAt: now.toISOString(),
    hashAlgorithm: 'SHA-256',
    files: entries.map((e) => ({ path: e.path, sha256: sha256(e.data), size: e.data.length, kind: e.kind })),
  };
  const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
  const manifestHash = createHash('sha256').update(manifestBytes).digest();
  const timestamp = deps.config.tsaUrl ? await rfc3161Timestamp(deps.config.tsaUrl, manifestHash) : await localTimestamp(deps.caches, deps.config.dataDir, manifestHash, now);

  const stampInfo = {
    kind: timestamp.kind,
    source: timestamp.source,
    genTime: timestamp.genTime,
    ...(timestamp.tsaUrl ? { tsaUrl: timestamp.tsaUrl } : {}),
    ...(timestamp.notice ? { notice: timestamp.notice } : {}),
    response: 'manifest.json.tsr',
    token: 'manifest.json.tst',
    ...(timestamp.certificatePem ? { certificate: 'tsa_local.crt' } : {}),
    verify: 'openssl ts -verify -data manifest.json -in manifest.json.tsr -CAfile tsa_local.crt',
  };
  const stampEntries = [
    { path: 'manifest.json.tsr', data: timestamp.responseDer },
    { path: 'manifest.json.tst', data: timestamp.tokenDer },
    { path: 'sello_de_tiempo.json', data: Buffer.from(JSON.stringify(stampInfo, null, 2)) },
    ...(timestamp.certificatePem ? [{ path: 'tsa_local.crt', data: Buffer.from(timestamp.certificatePem) }] : []),
    ...(timestamp.notice
      ? [{ path: 'LEEME.txt', data: Buffer.from(`${timestamp.notice}\r\nConfigure TSA_URL con el servicio RFC 3161 de un prestador de servicios de certificación acreditado.\r\n`) }]
      : []),
  ];
  const zip = await zipOf([...entries, { path: 'manifest.json', data: manifestBytes }, ...stampEntries], now);
  return { zip, manifest, manifestSha256: manifestHash.toString('hex'), timestamp };
}

/** Builds the bundle, stores it encrypted and records it as evidence. */
export async function storeBundle(
  deps: DocumentsDeps & { config: Pick<Config, 'tsaUrl' | 'dataDir'> },
  trx: TransactionRef,
  request: { customId: string; body: Record<string, unknown> },
  now: Date = new Date(),
) {
  const built = await buildBundle(deps, trx, request, now);
  const key = `${trx.grantorId}/${trx.uuidUser}/nom151/${trx.uuidTrx}-${compactTimestamp(now)}.zip`;
  const stored = await deps.blobs.put(key, built.zip, { contentType: 'application/zip' });
  const evidenceId = await addEvidence(deps.db, deps.cipher, {
    uuidTrx: trx.uuidTrx,
    grantorId: trx.grantorId,
    kind: bundleEvidenceKind,
    blobKey: stored.key,
    sha256: stored.sha256,
    payload: { manifestSha256: built.manifestSha256, files: built.manifest.files.length, timestamp: built.timestamp.source, genTime: built.timestamp.genTime },
  });
  return { ...built, evidenceId, blobKey: stored.key, sha256: stored.sha256 };
}
