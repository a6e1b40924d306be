import {
  consoleRedoStepLabels,
  consoleReviewReasonLabels,
  type ConsoleCase,
  type ConsoleCaseFile,
  type ConsoleImageKind,
  type ConsoleRedo,
  type ConsoleReview,
  type ConsoleReviewReason,
} from '@kyc/contracts';
import type { Deps } from '../../deps.js';
import { ownerParams } from '../../domain/grantor-params.js';
import { evidenceKind, type ConsentAcceptance, type CurpCheck, type HologramMeasure, type IneCheck, type ProofReading, type VideoTokenDecision } from '../../domain/evidence-kinds.js';
import { listEvidenceWithPayload, type EvidenceRecord } from '../../store/evidence.js';
import { findGrantorById, readStoredParams } from '../../store/grantors.js';
import { listAuditEvents, listLifecycleEvents } from '../events/store.js';
import { folioOf, transactionTrail, userDataEntries } from '../results/documents-service.js';
import { labelOf, ruleLabel, userDatumLabel } from '../results/documents/labels.js';
import { scoreOf } from '../results/facts.js';
import { findOutcome } from '../results/outcomes.js';
import { scoreRules, type IdReadFacts, type RuleResult } from '../results/score.js';
import { channelsOf, latestRedo, redoContacts } from '../redo/requests.js';
import { reviewOf } from './reviews.js';

const imageKinds: Record<ConsoleImageKind, string> = { front: evidenceKind.idFront, back: evidenceKind.idBack, holder: evidenceKind.holderPhoto };

/** The blob of the newest record of the image's kind that has one. */
export function imageBlobKey(records: readonly Pick<EvidenceRecord, 'kind' | 'blobKey'>[], which: ConsoleImageKind): string | undefined {
  return records.filter((r) => r.kind === imageKinds[which] && r.blobKey).at(-1)?.blobKey ?? undefined;
}

const proofFieldLabels: Record<string, string> = {
  holderName: 'Titular',
  street: 'Calle',
  exteriorNumber: 'Número exterior',
  interiorNumber: 'Número interior',
  settlement: 'Colonia',
  postalCode: 'Código postal',
  municipality: 'Municipio o alcaldía',
  state: 'Estado',
  issueDate: 'Fecha de emisión',
};

/** The ID reader's field names (id-capture's ocrData) that the confirmed data's labels do not cover. */
const idFieldLabels: Record<string, string> = {
  ...userDatumLabel,
  nombres: 'Nombres',
  apellidoPaterno: 'Apellido paterno',
  apellidoMaterno: 'Apellido materno',
  sexo: 'Sexo',
  anioRegistro: 'Año de registro',
  numeroRegistro: 'Número de registro',
  seccion: 'Sección',
  emision: 'Emisión',
  numero: 'Número',
  cp: 'Código postal',
  municipio: 'Municipio o alcaldía',
  cadena: 'Zona de lectura mecánica',
  ineVigencia: 'Vigencia (reverso)',
  cicMRZ: 'CIC (zona de lectura mecánica)',
  ciudadanoMRZ: 'Identificador del ciudadano (zona de lectura mecánica)',
  nombreCompletoMRZ: 'Nombre (zona de lectura mecánica)',
  seccionMRZ: 'Sección (zona de lectura mecánica)',
};

/** The MRZ check digits by the names the reader gives them. */
const mrzDigitLabels: Record<string, string> = {
  documentNumber: 'número de documento',
  birthDate: 'fecha de nacimiento',
  expirationDate: 'fecha de expiración',
  composite: 'dígito compuesto',
};

const reviewSource = 'Consola';

function fieldsOf(values: Record<string, unknown> | undefined, labels: Record<string, string>) {
  return Object.entries(values ?? {})
    .filter(([, v]) => (typeof v === 'string' && v !== '') || typeof v === 'number')
    .map(([name, v]) => ({ name, label: labels[name] ?? name, value: String(v) }));
}

function idRead(side: 'front' | 'back', facts: IdReadFacts | undefined): ConsoleCaseFile['idRead'][number] | undefined {
  if (!facts) return undefined;
  return { side, documentType: facts.documentType ?? null, fields: fieldsOf(facts.ocrData, idFieldLabels) };
}

/** MRZ, CURP/RENAPO, INE and validity as the score judged them, with each check's own rules; the hologram measure. */
function checksOf(rules: RuleResult[], latest: <T>(kind: string) => T | undefined): ConsoleCaseFile['checks'] {
  const back = latest<IdReadFacts>(evidenceKind.idBack);
  const mrzItems = Object.entries(back?.mrz?.checkDigits ?? {}).map(([rule, passed]) => ({ rule: mrzDigitLabels[rule] ?? rule, passed, detail: '' }));
  const itemsOf: Record<string, ConsoleCaseFile['checks'][number]['items']> = {
    [scoreRules.mrzCheckDigits]: mrzItems,
    [scoreRules.renapo]: latest<CurpCheck>(evidenceKind.renapo)?.checks ?? [],
    [scoreRules.ine]: latest<IneCheck>(evidenceKind.ine)?.checks ?? [],
  };
  const shown = [scoreRules.mrzCheckDigits, scoreRules.mrzFront, scoreRules.renapo, scoreRules.ine, scoreRules.validity] as string[];
  const checks: ConsoleCaseFile['checks'] = rules
    .filter((r) => shown.includes(r.rule))
    .map((r) => ({ check: r.rule, label: ruleLabel[r.rule] ?? r.rule, outcome: r.outcome, detail: r.detail, items: itemsOf[r.rule] ?? [] }));
  const hologram = latest<HologramMeasure>(evidenceKind.hologram);
  if (hologram) checks.push({ check: 'holograma', label: 'Holograma', outcome: hologram.outcome, detail: hologram.detail, items: [] });
  return checks;
}

function faceOf(face: VideoTokenDecision | undefined): ConsoleCaseFile['face'] {
  if (!face) return null;
  return {
    match: face.match,
    score: face.faceScore,
    threshold: face.threshold,
    liveness: { passed: face.liveness.passed, spoof: face.liveness.spoof },
    spokenCode: { verified: face.spokenCode.verified, engine: face.spokenCode.engine, detail: face.spokenCode.detail },
    message: face.message ?? null,
    repeats: face.earlierReadings?.repeated?.uuidTrx ?? null,
  };
}

function proofOf(proof: ProofReading | undefined): ConsoleCaseFile['proof'] {
  if (!proof) return null;
  const { outcome, read, nameMatchesId, recent, detail, maxAgeMonths: _months, ...values } = proof;
  return { outcome, read: read ?? false, fields: fieldsOf(values, proofFieldLabels), nameMatchesId, recent, detail: detail ?? null };
}

/** The newest redo in the timeline: when it was asked, and when the customer sent the step again. */
function redoTimeline(redo: ConsoleRedo | undefined): ConsoleCaseFile['timeline'] {
  if (!redo) return [];
  const step = consoleRedoStepLabels[redo.step];
  const reason = consoleReviewReasonLabels[redo.reason as ConsoleReviewReason] ?? redo.reason;
  const asked = { at: redo.at, source: reviewSource, step: 'Revisión', detail: `Repetir paso solicitado por ${redo.reviewer}: ${step} (${reason})` };
  return redo.completedAt ? [asked, { at: redo.completedAt, source: reviewSource, step: 'Repetición', detail: `La persona envió de nuevo: ${step}. El expediente vuelve a revisión.` }] : [asked];
}

/**
 * Everything the console shows of one case, read with the same readers as the documents and the score
 * (evidence, lifecycle and audit events, scoreOf), decrypted here on the server. The caller has checked that the
 * user may see the case.
 */
export async function readCaseFile(
  deps: Pick<Deps, 'db' | 'cipher' | 'caches'>,
  input: { row: ConsoleCase; uuidUser: string; grantorId: string; mayReview: boolean },
  now: Date = new Date(),
): Promise<ConsoleCaseFile> {
  const { db, cipher } = deps;
  const uuidTrx = input.row.uuidTrx;
  const grantor = await findGrantorById(db, input.grantorId);
  if (!grantor) throw new Error(`grantor ${input.grantorId} not found`);
  const [records, lifecycle, audit, outcome, review, stored, redo, contacts] = await Promise.all([
    listEvidenceWithPayload(db, cipher, uuidTrx),
    listLifecycleEvents(db, cipher, uuidTrx),
    listAuditEvents(db, cipher, uuidTrx),
    findOutcome(db, uuidTrx),
    reviewOf(db, cipher, uuidTrx),
    readStoredParams(deps, grantor.id),
    latestRedo(db, cipher, uuidTrx, now),
    redoContacts(db, cipher, uuidTrx),
  ]);
  // A finished case is scored as of when it finished, as the list and the result did (after a redo: as of its end).
  const scoredAt = outcome ? new Date(redo?.completedAt ?? outcome.finishedAt) : now;
  const score = await scoreOf(db, cipher, uuidTrx, ownerParams(grantor, stored, ''), scoredAt);
  const latest = <T>(kind: string) => records.filter((r) => r.kind === kind).at(-1)?.payload as T | undefined;
  const confirmedRecord = records.filter((r) => r.kind === evidenceKind.userData).at(-1);
  const timeline = transactionTrail(lifecycle, audit);
  if (review)
    timeline.push({
      at: review.at,
      source: reviewSource,
      step: 'Revisión',
      detail: `${review.decision === 'approve' ? 'Aprobado' : 'Rechazado'} por ${review.reviewer}: ${consoleReviewReasonLabels[review.reason as ConsoleReviewReason] ?? review.reason}`,
    });
  timeline.push(...redoTimeline(redo));
  return {
    case: input.row,
    uuidUser: input.uuidUser,
    folio: folioOf(input.uuidUser),
    timeline,
    idRead: [idRead('front', latest<IdReadFacts>(evidenceKind.idFront)), idRead('back', latest<IdReadFacts>(evidenceKind.idBack))].filter((x) => x !== undefined),
    confirmed: (confirmedRecord ? userDataEntries(confirmedRecord.payload) : []).map(([name, value, typed]) => ({ name, label: labelOf(userDatumLabel, name), value, typed: typed === true })),
    checks: checksOf(score.rules, latest),
    face: faceOf(latest<VideoTokenDecision>(evidenceKind.videoToken)),
    proof: proofOf(latest<ProofReading>(evidenceKind.proofReading)),
    consents: records
      .filter((r) => r.kind === evidenceKind.consent)
      .map((r) => r.payload as ConsentAcceptance)
      .map((c) => ({ consent: c.consent, version: c.version, sha256: c.sha256, acceptedAt: c.acceptedAt })),
    score: { flag: score.flag, rules: score.rules.map((r) => ({ rule: r.rule, outcome: r.outcome, effect: r.effect, summary: r.summary, detail: r.detail })) },
    images: (Object.keys(imageKinds) as ConsoleImageKind[]).filter((which) => imageBlobKey(records, which) !== undefined),
    review: (review satisfies ConsoleReview | undefined) ?? null,
    redo: redo ?? null,
    redoChannels: channelsOf(contacts),
    mayReview: input.mayReview,
  };
}
