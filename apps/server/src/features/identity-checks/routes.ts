import { calls, paramEnabled } from '@kyc/contracts';
import { normaliseCurp } from './curp-check.js';
import { checkCurp, checkIne, type GatewayNote } from './checks.js';
import type { FastifyBaseLogger } from 'fastify';
import type { CurpCheck, IneCheck } from '../../domain/evidence-kinds.js';
import { ownerParams } from '../../domain/grantor-params.js';
import type { IneData } from './ine-check.js';
import { normalizeId } from '../../domain/transactions.js';
import { httpIneGateway, type IneGateway } from './gateways/ine.js';
import { httpRenapoGateway, type RenapoGateway } from './gateways/renapo.js';
import { recordCaseIdentity } from '../console/case-index.js';
import { readStoredParams } from '../../store/grantors.js';
import { requireReadCredential } from '../../http/auth.js';
import { authorizeInOrder } from '../events/journey-order.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError } from '../../http/errors.js';

function requireOwnUser(uuid: string, uuidUser: string): void {
  if (normalizeId(uuid) !== uuidUser) throw new HttpError(400, 'Invalid request: body field uuid must equal the cliente header');
}

export interface IdentityCheckGateways {
  renapo?: RenapoGateway;
  ine?: IneGateway;
}

export function gatewaysFromConfig(config: Deps['config']): IdentityCheckGateways {
  const { renapo, ine } = config.identityGateways;
  return { renapo: renapo ? httpRenapoGateway(renapo) : undefined, ine: ine ? httpIneGateway(ine) : undefined };
}

/** The Otorgante header, when sent, must name the grantor of the api key. */
function assertNamedGrantor(otorgante: unknown, grantorId: string): void {
  if (typeof otorgante === 'string' && otorgante.trim() !== '' && normalizeId(otorgante) !== normalizeId(grantorId)) {
    throw new HttpError(400, 'Invalid request: header Otorgante does not name the grantor of the api key');
  }
}

function assertIneData(data: IneData): void {
  const values = 'cic' in data ? [data.cic] : [data.ocr, data.claveElector, data.numeroEmisionCredencial];
  if (values.some((v) => !/^[A-Za-z0-9]+$/.test(v.trim()))) throw new HttpError(400, 'Invalid request: body field data must hold letters and digits only');
}

function logCheck(log: FastifyBaseLogger, trx: { grantorId: string; uuidTrx: string }, result: CurpCheck | IneCheck, gateway: GatewayNote | undefined, message: string): void {
  log.info(
    {
      grantorId: trx.grantorId,
      uuidTrx: trx.uuidTrx,
      outcome: result.outcome,
      failed: result.checks.filter((c) => !c.passed).map((c) => c.rule),
      gateway: gateway && { answered: gateway.answered, reason: gateway.reason, ms: gateway.ms },
    },
    message,
  );
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
      await requireReadCredential(deps, request, reply, request.headers);
      const { grantor, transaction } = await authorizeInOrder(deps, request.headers, 'identityCheck');
      requireOwnUser(request.body.uuid, transaction.uuidUser);
      const curp = normaliseCurp(request.body.curp);
      if (!/^[A-Z0-9Ñ]+$/.test(curp)) throw new HttpError(400, 'Invalid request: body field curp must be letters and digits');
      // The review console finds the case by this CURP (blind index), whether or not it is checked here.
      await recordCaseIdentity(db, cipher, { uuidTrx: transaction.uuidTrx, grantorId: grantor.id, curp });
      reply.header('cache-control', 'no-store');
      const params = ownerParams(grantor, await readStoredParams(deps, grantor.id), request.headers.apikey);
      if (!paramEnabled(params, 'ENABLE_RENAPO')) {
        request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx }, 'CURP check skipped: ENABLE_RENAPO is off');
        const skipped: CurpCheck = { curp, outcome: 'not_checked', checks: [], source: 'disabled' };
        return { status: 200 as const, payload: skipped };
      }

      const { result, gateway } = await checkCurp({ db, cipher }, gateways.renapo, { uuidTrx: transaction.uuidTrx, grantorId: grantor.id }, curp);
      logCheck(request.log, { grantorId: grantor.id, uuidTrx: transaction.uuidTrx }, result, gateway, 'CURP checked');
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
      await requireReadCredential(deps, request, reply, request.headers);
      const { grantor, transaction } = await authorizeInOrder(deps, request.headers, 'identityCheck');
      requireOwnUser(request.body.uuid, transaction.uuidUser);
      assertNamedGrantor(request.headers['otorgante' as keyof typeof request.headers], grantor.id);
      const data = request.body.data as IneData;
      assertIneData(data);
      reply.header('cache-control', 'no-store');
      const params = ownerParams(grantor, await readStoredParams(deps, grantor.id), request.headers.apikey);
      if (!paramEnabled(params, 'ENABLE_INE')) {
        request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx }, 'INE check skipped: ENABLE_INE is off');
        const skipped: IneCheck = { outcome: 'not_checked', checks: [], source: 'disabled' };
        return { status: 200 as const, payload: skipped };
      }

      const { result, gateway } = await checkIne({ db, cipher }, gateways.ine, { uuidTrx: transaction.uuidTrx, grantorId: grantor.id }, data);
      logCheck(request.log, { grantorId: grantor.id, uuidTrx: transaction.uuidTrx }, result, gateway, 'INE credential checked');
      return { status: 200 as const, payload: result };
    },
  });
}
