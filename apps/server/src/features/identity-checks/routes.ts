import { calls, paramEnabled } from '@kyc/contracts';
import { curpCheckResult, curpRules, idHolderFrom, normaliseCurp, overallOutcome, registryRules, type RuleResult } from './curp-check.js';
import { evidenceKind, type CurpCheck, type IneCheck } from '../../domain/evidence-kinds.js';
import { ownerParams } from '../../domain/grantor-params.js';
import { ineRules, listRules, type IneBackRead, type IneData, type IneFrontRead } from './ine-check.js';
import { normalizeId } from '../../domain/transactions.js';
import { httpIneGateway, type IneGateway, type IneQuery } from './gateways/ine.js';
import { httpRenapoGateway, type RenapoGateway } from './gateways/renapo.js';
import { addEvidence, latestEvidence } from '../../store/evidence.js';
import { recordCaseIdentity } from '../console/case-index.js';
import { readStoredParams } from '../../store/grantors.js';
import type { Db } from '../../store/db.js';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { requireReadCredential } from '../../http/auth.js';
import { authorizeInOrder } from '../events/journey-order.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError } from '../../http/errors.js';

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

function requireOwnUser(uuid: string, uuidUser: string): void {
  if (normalizeId(uuid) !== uuidUser) throw new HttpError(400, 'Invalid request: body field uuid must equal the cliente header');
}

/** Gateway outcome kept with the evidence (never the registry's personal data). */
interface GatewayNote {
  name: string;
  answered: boolean;
  reason?: string;
  ms: number;
}

export interface IdentityCheckGateways {
  renapo?: RenapoGateway;
  ine?: IneGateway;
}

export function gatewaysFromConfig(config: Deps['config']): IdentityCheckGateways {
  const { renapo, ine } = config.identityGateways;
  return { renapo: renapo ? httpRenapoGateway(renapo) : undefined, ine: ine ? httpIneGateway(ine) : undefined };
}

/**
 * `POST /v1/renapo` and `POST /v1/ine` (docs/flow.md §7): the CURP and the INE credential checked by their own rules,
 * against this transaction's ID reads, and against an external registry when one is configured. The result is
 * a 200 whatever it says (docs/flow.md §8: these failures never block the flow) and is kept as evidence for scoring.
 */
export function registerIdentityCheckRoutes(app: ZodApp, deps: Deps): void {
  const gateways = gatewaysFromConfig(deps.config);
  registerRenapoRoute(app, deps, gateways);
  registerIneRoute(app, deps, gateways);
}

/** `POST /v1/renapo`: the CURP by its rules, against the ID reads and the registry gateway when configured. */
function registerRenapoRoute(app: ZodApp, deps: Deps, gateways: IdentityCheckGateways): void {
  const { config, db, cipher } = deps;
  const renapo = calls.renapo;
  app.route({
    method: renapo.method,
    url: renapo.path,
    schema: { summary: renapo.summary, tags: ['identification'], headers: renapo.headers, body: renapo.body, response: { 200: renapo.response, ...errorResponses } },
    handler: async (request, reply) => {
      await requireReadCredential({ db, config }, request, reply, request.headers);
      const { grantor, transaction } = await authorizeInOrder({ db, cipher }, request.headers, 'identityCheck');
      requireOwnUser(request.body.uuid, transaction.uuidUser);
      const curp = normaliseCurp(request.body.curp);
      if (!/^[A-Z0-9Ñ]+$/.test(curp)) throw new HttpError(400, 'Invalid request: body field curp must be letters and digits');
      // The review console finds the case by this CURP (blind index), whether or not it is checked here.
      await recordCaseIdentity(db, cipher, { uuidTrx: transaction.uuidTrx, grantorId: grantor.id, curp });
      reply.header('cache-control', 'no-store');
      const params = ownerParams(grantor, await readStoredParams(db, grantor.id), request.headers.apikey);
      if (!paramEnabled(params, 'ENABLE_RENAPO')) {
        request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx }, 'CURP check skipped: ENABLE_RENAPO is off');
        const skipped: CurpCheck = { curp, outcome: 'not_checked', checks: [], source: 'disabled' };
        return { status: 200 as const, payload: skipped };
      }

      const front = await usableRead(db, cipher, transaction.uuidTrx, evidenceKind.idFront);
      const holder = front?.ocrData ? idHolderFrom(front.ocrData) : undefined;
      const local = curpRules(curp, holder);
      const checks: RuleResult[] = [...local.checks];
      let gateway: GatewayNote | undefined;
      let registryAnswered = false;
      if (gateways.renapo && checks.every((c) => c.passed)) {
        const lookup = await gateways.renapo.lookup(curp);
        gateway = { name: gateways.renapo.name, answered: lookup.ok, ms: lookup.ms, ...(lookup.ok ? {} : { reason: lookup.reason }) };
        if (lookup.ok) {
          registryAnswered = true;
          checks.push(...registryRules(lookup.record, curp, holder));
        }
      }
      const result = curpCheckResult(curp, checks, local.consistencyChecked || registryAnswered, registryAnswered ? gateway!.name : 'local');
      await addEvidence(db, cipher, {
        uuidTrx: transaction.uuidTrx,
        grantorId: grantor.id,
        kind: evidenceKind.renapo,
        payload: { ...result, ...(gateway ? { gateway } : {}), idRead: holder !== undefined },
      });
      request.log.info(
        {
          grantorId: grantor.id,
          uuidTrx: transaction.uuidTrx,
          outcome: result.outcome,
          failed: checks.filter((c) => !c.passed).map((c) => c.rule),
          gateway: gateway && { answered: gateway.answered, reason: gateway.reason, ms: gateway.ms },
        },
        'CURP checked',
      );
      return { status: 200 as const, payload: result };
    },
  });
}

/** `POST /v1/ine`: the INE credential by its rules, against the ID reads and the INE gateway when configured. */
function registerIneRoute(app: ZodApp, deps: Deps, gateways: IdentityCheckGateways): void {
  const { config, db, cipher } = deps;
  const ine = calls.ine;
  app.route({
    method: ine.method,
    url: ine.path,
    schema: { summary: ine.summary, tags: ['identification'], headers: ine.headers, body: ine.body, response: { 200: ine.response, ...errorResponses } },
    handler: async (request, reply) => {
      await requireReadCredential({ db, config }, request, reply, request.headers);
      const { grantor, transaction } = await authorizeInOrder({ db, cipher }, request.headers, 'identityCheck');
      requireOwnUser(request.body.uuid, transaction.uuidUser);
      const otorgante = request.headers['otorgante' as keyof typeof request.headers];
      if (typeof otorgante === 'string' && otorgante.trim() !== '' && normalizeId(otorgante) !== normalizeId(grantor.id)) {
        throw new HttpError(400, 'Invalid request: header Otorgante does not name the grantor of the api key');
      }
      const data = request.body.data as IneData;
      const values = 'cic' in data ? [data.cic] : [data.ocr, data.claveElector, data.numeroEmisionCredencial];
      if (values.some((v) => !/^[A-Za-z0-9]+$/.test(v.trim()))) throw new HttpError(400, 'Invalid request: body field data must hold letters and digits only');
      reply.header('cache-control', 'no-store');
      const params = ownerParams(grantor, await readStoredParams(db, grantor.id), request.headers.apikey);
      if (!paramEnabled(params, 'ENABLE_INE')) {
        request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx }, 'INE check skipped: ENABLE_INE is off');
        const skipped: IneCheck = { outcome: 'not_checked', checks: [], source: 'disabled' };
        return { status: 200 as const, payload: skipped };
      }

      const [frontRead, backRead] = await Promise.all([usableRead(db, cipher, transaction.uuidTrx, evidenceKind.idFront), usableRead(db, cipher, transaction.uuidTrx, evidenceKind.idBack)]);
      const text = (record: Record<string, unknown> | undefined, key: string) => (typeof record?.[key] === 'string' ? (record[key] as string).trim() : undefined);
      const front: IneFrontRead | undefined = frontRead?.ocrData && {
        claveElector: text(frontRead.ocrData, 'claveElector'),
        emision: text(frontRead.ocrData, 'emision'),
        seccion: text(frontRead.ocrData, 'seccion'),
        fechaNacimiento: text(frontRead.ocrData, 'fechaNacimiento'),
        sexo: text(frontRead.ocrData, 'sexo'),
      };
      const lines = Array.isArray(backRead?.mrz?.lines) ? (backRead.mrz.lines as unknown[]).filter((l): l is string => typeof l === 'string') : undefined;
      const back: IneBackRead | undefined = backRead && { mrzLines: lines, mrzValid: backRead.mrz?.valid === true };
      const local = ineRules(data, back, front);
      const checks: RuleResult[] = [...local.checks];
      let gateway: GatewayNote | undefined;
      let listAnswered = false;
      const formatsOk = checks.filter((c) => c.rule.startsWith('formato_')).every((c) => c.passed);
      if (gateways.ine && formatsOk) {
        const mrzCitizen = lines?.[0]?.slice(21, 30);
        const query: IneQuery =
          'cic' in data
            ? { cic: data.cic.trim(), ...(mrzCitizen && /^\d{9}$/.test(mrzCitizen) ? { identificadorCiudadano: mrzCitizen } : {}) }
            : { ocr: data.ocr.trim(), claveElector: data.claveElector.trim().toUpperCase(), numeroEmision: data.numeroEmisionCredencial.trim() };
        const lookup = await gateways.ine.lookup(query);
        gateway = { name: gateways.ine.name, answered: lookup.ok, ms: lookup.ms, ...(lookup.ok ? {} : { reason: lookup.reason }) };
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
      await addEvidence(db, cipher, {
        uuidTrx: transaction.uuidTrx,
        grantorId: grantor.id,
        kind: evidenceKind.ine,
        payload: { ...result, data, ...(gateway ? { gateway } : {}), idRead: { front: front !== undefined, back: back !== undefined } },
      });
      request.log.info(
        {
          grantorId: grantor.id,
          uuidTrx: transaction.uuidTrx,
          outcome: result.outcome,
          failed: checks.filter((c) => !c.passed).map((c) => c.rule),
          gateway: gateway && { answered: gateway.answered, reason: gateway.reason, ms: gateway.ms },
        },
        'INE credential checked',
      );
      return { status: 200 as const, payload: result };
    },
  });
}
