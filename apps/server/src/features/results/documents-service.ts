import type { AppCaches } from '../../caches.js';
import { paramValue, type GrantorParam } from '@kyc/contracts';
import sharp from 'sharp';
import type { BlobStore } from '../../blob/blob-store.js';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { renderDocuments, type ConsentText, type DocumentsInput, type RenderedDocument } from './documents/documents.js';
import { compactTimestamp } from '../../domain/evidence.js';
import { evidenceKind, type ConsentAcceptance, type DocumentRecord } from '../../domain/evidence-kinds.js';
import { effectiveParams } from '../../domain/grantor-params.js';
import type { ScoreResult } from './score.js';
import type { Db } from '../../store/db.js';
import { addEvidence, listEvidenceWithPayload, type EvidenceRecord } from '../../store/evidence.js';
import { listAuditEvents, listLifecycleEvents, type StoredEvent } from '../events/store.js';
import { findGrantorById, readStoredParams } from '../../store/grantors.js';
import { datumValue, labelOf, statusLabel, stepLabel, trailSourceLabel, userDatumLabel } from './documents/labels.js';
import { scoreOf } from './facts.js';

export interface DocumentsDeps {
  db: Db;
  cipher: DataCipher;
  blobs: BlobStore;
  /** The app's caches (the grantor's parameters are read through them). */
  caches: AppCaches;
}

export interface StoredDocument extends DocumentRecord {
  evidenceId: string;
  blobKey: string;
}

/** Spec §4: the folio is the first segment of the user id. */
export function folioOf(uuidUser: string): string {
  return uuidUser.split('-')[0] ?? uuidUser;
}

/** Spec §2 placeholders {OTORGANTE}, {USUARIO}, {enter}, filled as the flow fills them (apps/web terms.ts). */
export function fillConsent(params: readonly GrantorParam[], kind: 'CLAUSULA' | 'AUTORIZACION', grantorName: string, userName: string): ConsentText {
  const fill = (template: string) => template.replaceAll('{OTORGANTE}', grantorName).replaceAll('{USUARIO}', userName).replaceAll('{enter}', '\n');
  return {
    title: fill(paramValue(params, `TITULO_${kind}`)),
    text: fill(paramValue(params, `TEXTO_${kind}`)),
    version: paramValue(params, `VERSION_${kind}`),
  };
}

/** A value the person typed instead of confirming what was read from the ID, so marked for the lender. */
export function typedValue(value: string): string {
  return `${value} (escrito por la persona, no leído de la identificación)`;
}

/** data_user as saved by the flow: a {description, value} list or a plain object. */
export type Entry = [string, string, true?];

export function userDataEntries(payload: unknown): Entry[] {
  const list = Array.isArray(payload)
    ? payload
    : payload && typeof payload === 'object' && Array.isArray((payload as { data_user?: unknown }).data_user)
      ? (payload as { data_user: unknown[] }).data_user
      : undefined;
  if (list) {
    return list
      .filter((d): d is { description: string; value: string; typed?: unknown } => !!d && typeof (d as { description?: unknown }).description === 'string')
      .map((d) => [d.description, String(d.value ?? ''), ...(d.typed === true ? [true as const] : [])] as Entry);
  }
  if (payload && typeof payload === 'object') {
    return Object.entries(payload as Record<string, unknown>)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
      .map(([k, v]) => [k, String(v)]);
  }
  return [];
}

/** What the user confirmed (data_user evidence), else what was read from the ID front. */
export function userDataOf(records: EvidenceRecord[], fallback?: Entry[]): { name: string; rows: [string, string][] } {
  const confirmed = records.filter((r) => r.kind === evidenceKind.userData).at(-1);
  const front = records.filter((r) => r.kind === evidenceKind.idFront).at(-1)?.payload as { ocrData?: Record<string, unknown> } | undefined;
  let entries = confirmed ? userDataEntries(confirmed.payload) : [];
  if (entries.length === 0 && fallback) entries = fallback;
  if (entries.length === 0 && front?.ocrData) {
    entries = Object.entries(front.ocrData).filter(([k, v]) => typeof v === 'string' && v !== '' && k in userDatumLabel) as [string, string][];
  }
  const get = (key: string) => entries.find(([k]) => k === key)?.[1]?.trim() ?? '';
  const name = get('nombreCompleto') || get('nombre') || (typeof front?.ocrData?.nombreCompleto === 'string' ? front.ocrData.nombreCompleto : '');
  const typedName = entries.some(([k, , typed]) => (k === 'nombreCompleto' || k === 'nombre') && typed);
  const rows = entries
    .filter(([k]) => k !== 'nombreCompleto' && k !== 'nombre')
    .map(([k, v, typed]) => [labelOf(userDatumLabel, k), typed ? typedValue(datumValue(v)) : datumValue(v)] as [string, string]);
  // The name heads the report; when the person typed it, a row says so.
  if (typedName) rows.unshift([userDatumLabel.nombreCompleto!, typedValue(name)]);
  return { name, rows };
}

async function jpegOf(blobs: BlobStore, key: string | null): Promise<Buffer | undefined> {
  if (!key) return undefined;
  try {
    const blob = await blobs.get(key);
    if (!blob.contentType.startsWith('image/')) return undefined;
    return await sharp(blob.buffer).rotate().resize({ width: 900, height: 900, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
  } catch {
    return undefined;
  }
}

/** An acceptance as the flow records it: the version and the SHA-256 of the text shown. */
function acceptanceDetail(dato: string): string | undefined {
  try {
    const parsed = JSON.parse(dato) as { version?: unknown; sha256?: unknown };
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const parts = [typeof parsed.version === 'string' ? `versión ${parsed.version}` : '', typeof parsed.sha256 === 'string' ? `SHA-256 del texto ${parsed.sha256.slice(0, 16)}…` : ''].filter(Boolean);
    return parts.length > 0 ? parts.join(', ') : 'datos registrados';
  } catch {
    return undefined;
  }
}

/** The flow reports typed fields by their data_user names ('Datos escritos por la persona: vigencia, curp'). */
const typedFieldsPrefix = 'Datos escritos por la persona: ';

function readableDescription(description: string | undefined): string | undefined {
  if (!description?.startsWith(typedFieldsPrefix)) return description;
  const names = description
    .slice(typedFieldsPrefix.length)
    .split(',')
    .map((name) => labelOf(userDatumLabel, name.trim()));
  return `${typedFieldsPrefix}${names.join(', ')}`;
}

function trailDetail(payload: Record<string, unknown>): string {
  const event = typeof payload.event === 'string' ? payload.event : undefined;
  if (event) {
    try {
      const parsed = JSON.parse(event) as { status?: string; description?: string };
      const status = parsed.status ? (statusLabel[parsed.status] ?? parsed.status) : undefined;
      return [status, readableDescription(parsed.description)].filter(Boolean).join(' - ');
    } catch {
      return event.slice(0, 200);
    }
  }
  const tipo = typeof payload.tipo === 'string' ? payload.tipo : '';
  const rawDato = typeof payload.dato === 'string' ? payload.dato : '';
  const dato = acceptanceDetail(rawDato) ?? rawDato.slice(0, 200);
  return [tipo, dato].filter(Boolean).join(' - ');
}

/** The lifecycle and audit events as people read them (Spanish step, source and detail), oldest first. */
export function transactionTrail(lifecycle: StoredEvent[], audit: StoredEvent[]): { at: string; source: string; step: string; detail: string }[] {
  return [
    ...lifecycle.map((e) => ({
      at: e.receivedAt,
      source: trailSourceLabel.lifecycle,
      step: labelOf(stepLabel, String((e.payload as { step?: string }).step ?? '')),
      detail: trailDetail(e.payload as Record<string, unknown>),
    })),
    ...audit.map((e) => ({
      at: e.receivedAt,
      source: trailSourceLabel.audit,
      step: labelOf(stepLabel, String((e.payload as { paso?: string }).paso ?? '')),
      detail: trailDetail(e.payload as Record<string, unknown>),
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
}

export interface TransactionRef {
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
}

/** Everything the documents show, read from the transaction's evidence, events and the grantor's parameters. */
export async function gatherDocumentsInput(
  deps: DocumentsDeps,
  trx: TransactionRef,
  now: Date = new Date(),
  extra: { userData?: Array<[string, string, true?]> } = {},
): Promise<{ input: DocumentsInput; score: ScoreResult; params: GrantorParam[] }> {
  const { db, cipher, blobs } = deps;
  const grantor = await findGrantorById(db, trx.grantorId);
  if (!grantor) throw new Error(`grantor ${trx.grantorId} not found`);
  const params = effectiveParams(grantor, await readStoredParams(deps, grantor.id));
  const [records, lifecycle, audit, score] = await Promise.all([
    listEvidenceWithPayload(db, cipher, trx.uuidTrx),
    listLifecycleEvents(db, cipher, trx.uuidTrx),
    listAuditEvents(db, cipher, trx.uuidTrx),
    scoreOf(db, cipher, trx.uuidTrx, params, now),
  ]);
  const legalName = paramValue(params, 'RAZON_SOCIAL').trim() || paramValue(params, 'NOMBRE_CORTO').trim() || grantor.name;
  const user = userDataOf(records, extra.userData);
  const userName = user.name || 'el usuario';
  const latestBlob = (kind: string) => records.filter((r) => r.kind === kind && r.blobKey).at(-1)?.blobKey ?? null;
  const photoSources: { label: string; key: string | null }[] = [
    { label: 'Identificación: frente', key: latestBlob(evidenceKind.idFront) },
    { label: 'Identificación: reverso', key: latestBlob(evidenceKind.idBack) },
    { label: 'Rostro en la identificación', key: latestBlob(evidenceKind.holderPhoto) },
    // A still of the face video, when the face capability keeps one (kinds rostro_*).
    {
      label: 'Rostro del video',
      key: records.filter((r) => r.kind.startsWith('rostro_') && r.kind !== evidenceKind.holderPhoto && r.blobKey).at(-1)?.blobKey ?? null,
    },
  ];
  const photos: DocumentsInput['photos'] = [];
  for (const source of photoSources) {
    const jpeg = await jpegOf(blobs, source.key);
    if (jpeg) photos.push({ label: source.label, jpeg });
  }
  const trail = transactionTrail(lifecycle, audit);
  const input: DocumentsInput = {
    grantor: { id: grantor.id, legalName, city: paramValue(params, 'CIUDAD_LEGAL_DEL_OTORGANTE').trim() },
    uuidTrx: trx.uuidTrx,
    uuidUser: trx.uuidUser,
    folio: folioOf(trx.uuidUser),
    userName,
    userData: user.rows,
    clause: fillConsent(params, 'CLAUSULA', legalName, userName),
    authorization: fillConsent(params, 'AUTORIZACION', legalName, userName),
    acceptances: records.filter((r) => r.kind === evidenceKind.consent).map((r) => r.payload as ConsentAcceptance),
    score,
    evidence: records.filter((r) => r.kind !== evidenceKind.document).map((r) => ({ kind: r.kind, sha256: r.sha256, createdAt: r.createdAt })),
    trail,
    photos,
    generatedAt: now,
  };
  return { input, score, params };
}

export function documentKey(trx: TransactionRef, name: string, now: Date): string {
  return `${trx.grantorId}/${trx.uuidUser}/documentos/${trx.uuidTrx}-${name}-${compactTimestamp(now)}.pdf`;
}

/** Renders the three PDFs, stores them encrypted and records one `documento` evidence per document. */
export async function generateDocuments(
  deps: DocumentsDeps,
  trx: TransactionRef,
  now: Date = new Date(),
  extra: { userData?: Array<[string, string, true?]> } = {},
): Promise<{ documents: StoredDocument[]; score: ScoreResult; params: GrantorParam[]; rendered: RenderedDocument[] }> {
  const { input, score, params } = await gatherDocumentsInput(deps, trx, now, extra);
  const rendered = await renderDocuments(input);
  const documents: StoredDocument[] = [];
  for (const doc of rendered) {
    const stored = await deps.blobs.put(documentKey(trx, doc.name, now), Buffer.from(doc.bytes), { contentType: 'application/pdf' });
    const record: DocumentRecord = { name: doc.name, sha256: stored.sha256 };
    const evidenceId = await addEvidence(deps.db, deps.cipher, {
      uuidTrx: trx.uuidTrx,
      grantorId: trx.grantorId,
      kind: evidenceKind.document,
      blobKey: stored.key,
      sha256: stored.sha256,
      payload: record,
    });
    documents.push({ ...record, evidenceId, blobKey: stored.key });
  }
  return { documents, score, params, rendered };
}

/** The newest stored version of each document of the transaction. */
export async function latestDocuments(deps: Pick<DocumentsDeps, 'db' | 'cipher'>, uuidTrx: string): Promise<Map<string, StoredDocument>> {
  const records = await listEvidenceWithPayload(deps.db, deps.cipher, uuidTrx, evidenceKind.document);
  const latest = new Map<string, StoredDocument>();
  for (const r of records) {
    const payload = r.payload as DocumentRecord | undefined;
    if (payload?.name && r.blobKey) latest.set(payload.name, { ...payload, evidenceId: r.id, blobKey: r.blobKey });
  }
  return latest;
}
