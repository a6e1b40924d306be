import { curpCheckResult, curpRules, idHolderFrom, overallOutcome, registryRules, type RuleResult } from './curp-check.js';
import { evidenceKind, type CurpCheck, type IneCheck } from '../../domain/evidence-kinds.js';
import { ineRules, listRules, type IneBackRead, type IneData, type IneFrontRead } from './ine-check.js';
import type { IneGateway, IneQuery } from './gateways/ine.js';
import type { RenapoGateway } from './gateways/renapo.js';
import { addEvidence, latestEvidence } from '../../store/evidence.js';
import type { Db } from '../../store/db.js';
import type { DataCipher } from '../../crypto/data-cipher.js';

/**
 * The CURP and INE credential checks (docs/flow.md §7): each by its own rules, against this transaction's ID reads,
 * and against an external registry when one is configured; the result is kept as evidence for scoring.
 */

type Stores = { db: Db; cipher: DataCipher };
type Trx = { uuidTrx: string; grantorId: string };

interface ReadPayload {
  verdict?: { kind?: string };
  ocrData?: Record<string, unknown>;
  mrz?: { lines?: unknown; valid?: unknown };
}

/** The latest read of one side of the ID, unless it was rejected (a rejected read says nothing about the holder). */
async function usableRead(db: Db, cipher: DataCipher, uuidTrx: string, kind: string): Promise<ReadPayload | undefined> {
  const record = await latestEvidence(db, cipher, uuidTrx, kind);
  const payload = record?.payload as ReadPayload | undefined;
  if (!payload || payload.verdict?.kind === 'rejected') return undefined;
  return payload;
}

/** Gateway outcome kept with the evidence (never the registry's personal data). */
export interface GatewayNote {
  name: string;
  answered: boolean;
  reason?: string;
  ms: number;
}

/** The CURP by its rules, against the ID front's read and the registry gateway when configured and the rules pass. */
export async function checkCurp({ db, cipher }: Stores, renapo: RenapoGateway | undefined, trx: Trx, curp: string): Promise<{ result: CurpCheck; gateway?: GatewayNote }> {
  const front = await usableRead(db, cipher, trx.uuidTrx, evidenceKind.idFront);
  const holder = front?.ocrData ? idHolderFrom(front.ocrData) : undefined;
  const local = curpRules(curp, holder);
  const checks: RuleResult[] = [...local.checks];
  let gateway: GatewayNote | undefined;
  let registryAnswered = false;
  if (renapo && checks.every((c) => c.passed)) {
    const lookup = await renapo.lookup(curp);
    gateway = { name: renapo.name, answered: lookup.ok, ms: lookup.ms, ...(lookup.ok ? {} : { reason: lookup.reason }) };
    if (lookup.ok) {
      registryAnswered = true;
      checks.push(...registryRules(lookup.record, curp, holder));
    }
  }
  const result = curpCheckResult(curp, checks, local.consistencyChecked || registryAnswered, registryAnswered ? gateway!.name : 'local');
  await addEvidence(db, cipher, {
    uuidTrx: trx.uuidTrx,
    grantorId: trx.grantorId,
    kind: evidenceKind.renapo,
    payload: { ...result, ...(gateway ? { gateway } : {}), idRead: holder !== undefined },
  });
  return { result, ...(gateway ? { gateway } : {}) };
}

const text = (record: Record<string, unknown> | undefined, key: string) => (typeof record?.[key] === 'string' ? (record[key] as string).trim() : undefined);

/** The ID's reads the INE rules compare with: the front's printed fields and the back's machine-readable zone. */
async function ineReads({ db, cipher }: Stores, uuidTrx: string): Promise<{ front?: IneFrontRead; back?: IneBackRead; lines?: string[] }> {
  const [frontRead, backRead] = await Promise.all([usableRead(db, cipher, uuidTrx, evidenceKind.idFront), usableRead(db, cipher, uuidTrx, evidenceKind.idBack)]);
  const front: IneFrontRead | undefined = frontRead?.ocrData && {
    claveElector: text(frontRead.ocrData, 'claveElector'),
    emision: text(frontRead.ocrData, 'emision'),
    seccion: text(frontRead.ocrData, 'seccion'),
    fechaNacimiento: text(frontRead.ocrData, 'fechaNacimiento'),
    sexo: text(frontRead.ocrData, 'sexo'),
  };
  const lines = Array.isArray(backRead?.mrz?.lines) ? (backRead.mrz.lines as unknown[]).filter((l): l is string => typeof l === 'string') : undefined;
  const back: IneBackRead | undefined = backRead && { mrzLines: lines, mrzValid: backRead.mrz?.valid === true };
  return { front, back, lines };
}

/** The INE list's query: the CIC (with the citizen id of the back's zone when read) or the OCR, elector key and issue. */
function ineQuery(data: IneData, lines: string[] | undefined): IneQuery {
  const mrzCitizen = lines?.[0]?.slice(21, 30);
  return 'cic' in data
    ? { cic: data.cic.trim(), ...(mrzCitizen && /^\d{9}$/.test(mrzCitizen) ? { identificadorCiudadano: mrzCitizen } : {}) }
    : { ocr: data.ocr.trim(), claveElector: data.claveElector.trim().toUpperCase(), numeroEmision: data.numeroEmisionCredencial.trim() };
}

/** The INE credential by its rules, against the ID reads and the INE gateway when configured and the formats pass. */
export async function checkIne(stores: Stores, ine: IneGateway | undefined, trx: Trx, data: IneData): Promise<{ result: IneCheck; gateway?: GatewayNote }> {
  const { front, back, lines } = await ineReads(stores, trx.uuidTrx);
  const local = ineRules(data, back, front);
  const checks: RuleResult[] = [...local.checks];
  let gateway: GatewayNote | undefined;
  let listAnswered = false;
  const formatsOk = checks.filter((c) => c.rule.startsWith('formato_')).every((c) => c.passed);
  if (ine && formatsOk) {
    const lookup = await ine.lookup(ineQuery(data, lines));
    gateway = { name: ine.name, answered: lookup.ok, ms: lookup.ms, ...(lookup.ok ? {} : { reason: lookup.reason }) };
    if (lookup.ok) {
      listAnswered = true;
      checks.push(...listRules(lookup.record));
    }
  }
  const result: IneCheck = {
    outcome: overallOutcome(checks, local.consistencyChecked || listAnswered),
    checks,
    source: listAnswered ? gateway!.name : 'local',
  };
  await addEvidence(stores.db, stores.cipher, {
    uuidTrx: trx.uuidTrx,
    grantorId: trx.grantorId,
    kind: evidenceKind.ine,
    payload: { ...result, data, ...(gateway ? { gateway } : {}), idRead: { front: front !== undefined, back: back !== undefined } },
  });
  return { result, ...(gateway ? { gateway } : {}) };
}
