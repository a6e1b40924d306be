import { isIneValidityValid, isPassportValidityValid } from '@kyc/contracts/rules';
import type { CurpCheck, IneCheck, ProofReading, VideoTokenDecision } from '../../domain/evidence-kinds.js';

/**
 * The traffic-light score of a transaction (docs/flow.md §4 "Score flag"), as a pure function of the evidence it left.
 * Every rule reports passed / failed / missing; what a failure or an absence does to the flag is the rule table
 * of docs/decisions.md ("Scoring"), adjustable per grantor with SCORE_REGLAS_OPCIONALES / SCORE_REGLAS_ESTRICTAS.
 */
export type ScoreFlag = 'GREEN' | 'YELLOW' | 'RED';
export type RuleEffect = 'none' | 'yellow' | 'red';

export const scoreRules = {
  identification: 'identificacion_frente',
  idBack: 'identificacion_reverso',
  mrzCheckDigits: 'mrz_digitos_verificadores',
  mrzFront: 'mrz_coincide_frente',
  validity: 'vigencia',
  renapo: 'curp_renapo',
  ine: 'ine_lista_nominal',
  face: 'rostro_coincidencia',
  liveness: 'prueba_de_vida',
  spokenCode: 'codigo_hablado',
  proofOfAddress: 'comprobante_domicilio',
  attempts: 'intentos',
} as const;
export type ScoreRule = (typeof scoreRules)[keyof typeof scoreRules];

/** Rules that decide whether there is a result at all: their absence is RED whatever the grantor lists. */
const undecidedIsRed: ReadonlySet<string> = new Set([scoreRules.identification, scoreRules.face, scoreRules.liveness]);

/** One ID side as stored by /v2/ocr (evidence ocr_frente / ocr_reverso). */
export interface IdReadFacts {
  verdict?: { kind: 'accepted' | 'tolerated' | 'rejected'; reason?: string; detail?: string };
  documentType?: string;
  ocrData?: Record<string, string | boolean | number | null>;
  mrz?: { valid: boolean; checkDigits?: Record<string, boolean> };
  warnings?: string[];
}

export interface ScoreFacts {
  front?: IdReadFacts;
  back?: IdReadFacts;
  renapo?: CurpCheck;
  ine?: IneCheck;
  face?: VideoTokenDecision;
  proof?: ProofReading;
  /** The transaction is locked after exhausted attempts or a failed finalisation. */
  locked: boolean;
}

export interface ScoreSettings {
  renapoEnabled: boolean;
  ineEnabled: boolean;
  /** SCORE_SIMILITUD_MINIMA: raises the face engine's own threshold; null keeps the engine's. */
  minFaceScore: number | null;
  /** SCORE_REGLAS_OPCIONALES: absence (missing, not_checked) does not lower the flag. */
  optional: ReadonlySet<string>;
  /** SCORE_REGLAS_ESTRICTAS: failure or absence is RED. */
  strict: ReadonlySet<string>;
  /**
   * REQ_COMPROBANTE_DOMICILIO (default true here): when off the flow never asks for the proof, so its absence does
   * not lower the flag (a proof that was captured still counts).
   */
  proofRequired?: boolean;
}

export interface RuleResult {
  rule: ScoreRule;
  outcome: 'passed' | 'failed' | 'missing';
  effect: RuleEffect;
  /** What a person reads (the identity report): Spanish, without the engines' own wording. */
  summary: string;
  detail: string;
}

export interface ScoreResult {
  flag: ScoreFlag;
  /** The contract's Fields: each rule, whether it passed, and why (with its effect on the flag). */
  Fields: { rule: string; passed: boolean; detail: string }[];
  rules: RuleResult[];
}

/** `detail` is for people; `technical` (engine reasons, field names) only goes to the API's explanation. */
type Draft = { rule: ScoreRule; outcome: RuleResult['outcome']; onFail: RuleEffect; onMissing: RuleEffect; detail: string; technical?: string };
const passed = (rule: ScoreRule, detail: string, technical?: string): Draft => ({ rule, outcome: 'passed', onFail: 'none', onMissing: 'none', detail, technical });
const failed = (rule: ScoreRule, onFail: RuleEffect, detail: string, technical?: string): Draft => ({ rule, outcome: 'failed', onFail, onMissing: 'none', detail, technical });
const missing = (rule: ScoreRule, onMissing: RuleEffect, detail: string, technical?: string): Draft => ({ rule, outcome: 'missing', onFail: 'none', onMissing, detail, technical });

const mrzDocuments = new Set(['INE', 'DNI_PERU']);
const backlessDocuments = new Set(['PASAPORTE', 'FMM']);

function text(data: IdReadFacts['ocrData'], key: string): string {
  const value = data?.[key];
  return typeof value === 'string' ? value.trim() : '';
}

/** The document read, as the report names it (documentType is the reader's code). */
const documentName: Record<string, string> = {
  INE: 'credencial para votar',
  PASAPORTE: 'pasaporte',
  DNI_PERU: 'DNI de Perú',
  FMM: 'forma migratoria múltiple',
  VISA: 'visa',
};

function idFrontRule(front: IdReadFacts | undefined): Draft {
  const rule = scoreRules.identification;
  if (!front) return missing(rule, 'red', 'No se ha leído el frente de la identificación.');
  const kind = front.verdict?.kind;
  if (kind === 'accepted') return passed(rule, `Frente leído (${documentName[front.documentType ?? ''] ?? 'documento'}) con los datos completos.`);
  if (kind === 'tolerated') return failed(rule, 'yellow', 'Frente leído con datos incompletos o con formato dudoso.', front.verdict?.reason);
  return failed(rule, 'red', 'El frente no es una identificación legible.', front.verdict?.detail);
}

function idBackRule(front: IdReadFacts | undefined, back: IdReadFacts | undefined): Draft | undefined {
  const type = front?.documentType;
  if (!type || backlessDocuments.has(type)) return undefined;
  const rule = scoreRules.idBack;
  if (!back) return missing(rule, 'red', 'No se ha leído el reverso de la identificación.');
  if (back.verdict?.kind === 'accepted') return passed(rule, 'Reverso leído con su zona de lectura mecánica.');
  return failed(rule, 'red', 'El reverso no se pudo leer.', back.verdict?.detail);
}

/** The side that carries the MRZ: the back of an INE or DNI, the data page (front) of a passport. */
function mrzSide(facts: ScoreFacts): IdReadFacts | undefined {
  const type = facts.front?.documentType;
  if (type && mrzDocuments.has(type)) return facts.back;
  return facts.front?.mrz ? facts.front : facts.back;
}

function mrzRules(facts: ScoreFacts): Draft[] {
  if (facts.front?.documentType === 'FMM') return [];
  const side = mrzSide(facts);
  const digits = scoreRules.mrzCheckDigits;
  const cross = scoreRules.mrzFront;
  if (!side?.mrz) {
    return [missing(digits, 'yellow', 'No hay zona de lectura mecánica (MRZ) leída.'), missing(cross, 'yellow', 'Sin MRZ no se pudo comparar con el frente.')];
  }
  const badDigits = Object.entries(side.mrz.checkDigits ?? {})
    .filter(([, ok]) => !ok)
    .map(([name]) => name);
  const digitsRule = side.mrz.valid
    ? passed(digits, 'Todos los dígitos verificadores de la MRZ son correctos.')
    : failed(digits, 'yellow', 'Algún dígito verificador de la MRZ es incorrecto.', badDigits.join(', ') || undefined);
  const warnings = [...(facts.front?.warnings ?? []), ...(side.warnings ?? [])];
  const mismatches = [...new Set(warnings.filter((w) => w.startsWith('mrz_front_mismatch:')).map((w) => w.slice('mrz_front_mismatch:'.length)))];
  const crossRule =
    mismatches.length === 0
      ? passed(cross, 'Los datos de la MRZ coinciden con los del frente.')
      : failed(cross, 'yellow', 'La MRZ no coincide con los datos impresos en el frente.', mismatches.join(', '));
  return [digitsRule, crossRule];
}

function validityRule(front: IdReadFacts | undefined, now: Date): Draft {
  const rule = scoreRules.validity;
  const value = text(front?.ocrData, 'vigencia');
  if (!value) return missing(rule, 'yellow', 'No se leyó la vigencia de la identificación.');
  const valid = /^\d{4}$/.test(value) ? isIneValidityValid(value, now) : isPassportValidityValid(value, now);
  if (valid) return passed(rule, `Identificación vigente (${value}).`);
  if (!/^\d{4}$/.test(value) && !/^\d{2}\/\d{2}\/\d{4}$/.test(value) && value.toUpperCase() !== 'PERMANENTE') {
    return missing(rule, 'yellow', `La vigencia leída no tiene un formato reconocible (${value}).`);
  }
  return failed(rule, 'red', `Identificación vencida (${value}).`);
}

function checkRule(rule: ScoreRule, label: string, check: CurpCheck | IneCheck | undefined): Draft {
  if (!check) return missing(rule, 'yellow', `${label}: no se realizó.`);
  const failures = check.checks.filter((c) => !c.passed).map((c) => `${c.rule} (${c.detail})`);
  if (check.outcome === 'passed') return passed(rule, `${label}: correcta.`, check.source);
  if (check.outcome === 'failed') return failed(rule, 'red', `${label}: no superada.`, [check.source, ...failures].join('; '));
  return missing(rule, 'yellow', `${label}: no verificada.`, check.source);
}

function faceRules(face: VideoTokenDecision | undefined, minFaceScore: number | null): Draft[] {
  if (!face) {
    return [
      missing(scoreRules.face, 'red', 'Aún no hay comparación del rostro del video con la identificación.'),
      missing(scoreRules.liveness, 'red', 'Aún no hay prueba de vida.'),
      missing(scoreRules.spokenCode, 'yellow', 'Aún no se verificó el código leído en voz alta.'),
    ];
  }
  const threshold = Math.max(face.threshold, minFaceScore ?? -Infinity);
  const score = face.faceScore;
  const scoreText = score === null ? 'sin similitud calculada' : `similitud ${score.toFixed(3)}, mínimo ${threshold.toFixed(3)}`;
  const faceRule =
    face.match && score !== null && score >= threshold
      ? passed(scoreRules.face, `El rostro del video coincide con la identificación (${scoreText}).`)
      : failed(scoreRules.face, 'red', `El rostro del video no coincide con la identificación (${scoreText})${face.message ? `: ${face.message}` : ''}.`);
  const live = face.liveness;
  const livenessRule = live.spoof
    ? failed(scoreRules.liveness, 'red', 'Se detectó un intento de suplantación.')
    : live.passed
      ? passed(scoreRules.liveness, 'Prueba de vida superada.')
      : failed(scoreRules.liveness, 'red', 'Prueba de vida no superada.');
  const spoken = face.spokenCode;
  const spokenRule =
    spoken.verified === true
      ? passed(scoreRules.spokenCode, 'El código leído en voz alta coincide.', spoken.engine)
      : spoken.verified === false
        ? failed(scoreRules.spokenCode, 'red', 'El código leído en voz alta no coincide.', `${spoken.engine}: ${spoken.detail}`)
        : missing(scoreRules.spokenCode, 'yellow', 'No se verificó el código leído en voz alta.', spoken.detail || undefined);
  return [faceRule, livenessRule, spokenRule];
}

function proofRule(proof: ProofReading | undefined, required: boolean): Draft {
  const rule = scoreRules.proofOfAddress;
  if (!proof) return missing(rule, required ? 'yellow' : 'none', required ? 'No se capturó comprobante de domicilio.' : 'El otorgante no pide comprobante de domicilio.');
  if (proof.outcome === 'not_checked') return missing(rule, 'yellow', 'El comprobante de domicilio no se pudo leer.');
  const problems: string[] = [];
  if (proof.outcome === 'failed') problems.push('lectura no superada');
  if (proof.nameMatchesId === false) problems.push('el titular no coincide con la identificación');
  if (proof.recent === false) problems.push('el comprobante no es reciente');
  if (problems.length > 0) return failed(rule, 'yellow', `Comprobante de domicilio con observaciones: ${problems.join(', ')}.`);
  const unknown = [proof.nameMatchesId === null ? 'titular' : '', proof.recent === null ? 'fecha' : ''].filter(Boolean);
  return passed(rule, `Comprobante de domicilio leído${unknown.length ? ` (sin confirmar: ${unknown.join(', ')})` : ''}.`);
}

function applySettings(draft: Draft, settings: ScoreSettings): RuleResult {
  const { rule, outcome, detail, technical } = draft;
  let effect: RuleEffect = outcome === 'failed' ? draft.onFail : outcome === 'missing' ? draft.onMissing : 'none';
  let note = '';
  if (outcome === 'missing' && settings.optional.has(rule) && !undecidedIsRed.has(rule)) {
    effect = 'none';
    note = ' Regla opcional para este otorgante.';
  }
  if (outcome !== 'passed' && settings.strict.has(rule) && effect !== 'none' && effect !== 'red') {
    effect = 'red';
    note = ' Regla estricta para este otorgante.';
  }
  const label = effect === 'red' ? ' [ROJO]' : effect === 'yellow' ? ' [AMARILLO]' : '';
  const summary = `${detail}${note}`;
  return { rule, outcome, effect, summary, detail: `${summary}${technical ? ` (${technical})` : ''}${label}` };
}

export function scoreTransaction(facts: ScoreFacts, settings: ScoreSettings, now: Date = new Date()): ScoreResult {
  const drafts: Draft[] = [idFrontRule(facts.front)];
  const back = idBackRule(facts.front, facts.back);
  if (back) drafts.push(back);
  if (facts.front) drafts.push(...mrzRules(facts), validityRule(facts.front, now));
  const curp = text(facts.front?.ocrData, 'curp');
  if (settings.renapoEnabled && (curp || facts.renapo)) drafts.push(checkRule(scoreRules.renapo, 'Validación de CURP', facts.renapo));
  if (settings.ineEnabled && (facts.front?.documentType === 'INE' || facts.ine)) drafts.push(checkRule(scoreRules.ine, 'Validación de la credencial INE', facts.ine));
  drafts.push(...faceRules(facts.face, settings.minFaceScore), proofRule(facts.proof, settings.proofRequired ?? true));
  drafts.push(
    facts.locked ? failed(scoreRules.attempts, 'red', 'La transacción está bloqueada por intentos agotados o una finalización fallida.') : passed(scoreRules.attempts, 'Sin bloqueo por intentos.'),
  );

  const rules = drafts.map((d) => applySettings(d, settings));
  const flag: ScoreFlag = rules.some((r) => r.effect === 'red') ? 'RED' : rules.some((r) => r.effect === 'yellow') ? 'YELLOW' : 'GREEN';
  return { flag, rules, Fields: rules.map((r) => ({ rule: r.rule, passed: r.outcome === 'passed', detail: r.detail })) };
}

/** A comma-separated list parameter as a set of rule names (blanks ignored, case-insensitive). */
export function ruleList(value: string): Set<string> {
  return new Set(
    value
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** SCORE_SIMILITUD_MINIMA: a number in 0..1, else null (the engine's threshold applies). */
export function minFaceScoreParam(value: string): number | null {
  if (!/^\s*(0(\.\d+)?|1(\.0+)?)\s*$/.test(value)) return null;
  return Number(value);
}
