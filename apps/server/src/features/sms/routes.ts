import { calls, errorTexts, paramEnabled, smsTexts, type GrantorParam } from '@kyc/contracts';
import type { FastifyReply } from 'fastify';
import { evidenceKind, type PhoneVerification } from '../../domain/evidence-kinds.js';
import { authorizeTransaction } from '../../http/auth.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError } from '../../http/errors.js';
import { addEvidence } from '../../store/evidence.js';
import { readStoredParams } from '../../store/grantors.js';
import { codeMatches, decideSend, decideVerify, generateCode, hashCode, newSalt, phoneHash, smsRules, smsText } from './rules.js';
import { createSmsSender, type SmsSender } from './senders.js';
import { creditConsentAccepted, deleteCode, insertCode, latestCode, sendTimes, setCodeState, spendAttempt } from './store.js';

const phoneContext = (uuidTrx: string) => `sms-phone:${uuidTrx}`;

function storedAsList(stored: Readonly<Record<string, string>>): GrantorParam[] {
  return Object.entries(stored).map(([idCampo, valor]) => ({ idCampo, valor }));
}

/** Spec §9: country prefix 52, 51 in the DNI variant. */
function expectedAreaCode(params: GrantorParam[]): '51' | '52' {
  return paramEnabled(params, 'VARIANTE_DNI') ? '51' : '52';
}

type Phone = { areaCode: string; number: string };

/** A code may be sent: the consent parameter on, the grantor's country prefix, the consent accepted, the send rate (a 429 says when to retry). */
async function assertMaySend(db: Deps['db'], params: GrantorParam[], uuidTrx: string, areaCode: string, at: Date, reply: FastifyReply): Promise<void> {
  if (!paramEnabled(params, 'ENABLE_CONSULTA_HISTORIAL')) {
    throw new HttpError(403, 'The credit-history consent (ENABLE_CONSULTA_HISTORIAL) is off for this grantor');
  }
  if (areaCode !== expectedAreaCode(params)) {
    throw new HttpError(400, `phone.areaCode must be ${expectedAreaCode(params)} for this grantor`, errorTexts.smsFailed);
  }
  if (!(await creditConsentAccepted(db, uuidTrx))) {
    throw new HttpError(409, 'The credit-history consent has not been accepted in this transaction', smsTexts.consentMissing);
  }
  const decision = decideSend(await sendTimes(db, uuidTrx), at.getTime());
  if (decision.kind === 'wait') {
    reply.header('retry-after', String(Math.ceil(decision.retryAfterMs / 1000)));
    throw new HttpError(429, 'A code was sent less than 30 s ago', smsTexts.wait);
  }
  if (decision.kind === 'limit') throw new HttpError(429, `At most ${smsRules.maxSends} codes per transaction`, smsTexts.sendLimit);
}

/** The code stored hashed (the phone encrypted, hashed for lookups) before it is sent; returns its id. */
async function storeCode(db: Deps['db'], cipher: Deps['cipher'], key: Buffer, trx: { uuidTrx: string; grantorId: string }, phone: Phone, code: string, at: Date): Promise<string> {
  const salt = newSalt();
  return insertCode(
    db,
    {
      uuidTrx: trx.uuidTrx,
      grantorId: trx.grantorId,
      phoneHash: phoneHash(key, phone.areaCode, phone.number),
      phoneEnc: cipher.encrypt(JSON.stringify(phone), phoneContext(trx.uuidTrx)),
      salt,
      codeHash: hashCode(key, salt, code),
      expiresAt: new Date(at.getTime() + smsRules.ttlMs),
    },
    at,
  );
}

/** Whether the stored code can be checked ('check'), was already verified, or is refused (404, 410, 429). */
function verifyState(stored: Parameters<typeof decideVerify>[0], at: Date): 'check' | 'already_verified' {
  const state = decideVerify(stored, at.getTime());
  switch (state) {
    case 'no_code':
      throw new HttpError(404, 'No code was sent to this number in this transaction', smsTexts.notSent);
    case 'expired':
      throw new HttpError(410, 'The code has expired', smsTexts.expired);
    case 'exhausted':
      throw new HttpError(429, 'Too many wrong codes', smsTexts.exhausted);
    default:
      return state;
  }
}

export interface SmsRouteOptions {
  /** Tests pass their own adapter; otherwise the configuration decides (outbox or HTTP gateway). */
  sender?: SmsSender;
  now?: () => Date;
}

/** token_sms_ac and verify_token_sms/verify (docs/flow.md §7): 6-digit codes, hashed, expiring, attempt- and rate-limited. */
export function registerSmsRoutes(app: ZodApp, { db, cipher, config, caches }: Deps, options: SmsRouteOptions = {}): void {
  const store = { db, caches };
  const sender = options.sender ?? createSmsSender(config);
  const now = options.now ?? (() => new Date());
  const key = cipher.deriveKey('sms-codes');
  app.log.info({ sms: sender.kind }, 'SMS adapter ready');

  const send = calls.tokenSms;
  app.route({
    method: send.method,
    url: send.path,
    schema: { summary: send.summary, tags: ['sms'], headers: send.headers, body: send.body, response: { 200: send.response, ...errorResponses } },
    handler: async (request, reply) => {
      const { grantor, transaction } = await authorizeTransaction(store, request.headers);
      const { client, phone } = request.body;
      if (client.uuid.toLowerCase() !== transaction.uuidUser) throw new HttpError(403, 'client.uuid is not the user of this transaction');
      const params = storedAsList(await readStoredParams(store, grantor.id));
      const at = now();
      await assertMaySend(db, params, transaction.uuidTrx, phone.areaCode, at, reply);

      const code = generateCode();
      const id = await storeCode(db, cipher, key, { uuidTrx: transaction.uuidTrx, grantorId: grantor.id }, phone, code, at);
      const grantorName = params.find((p) => p.idCampo === 'NOMBRE_CORTO')?.valor ?? grantor.name;
      try {
        await sender.send({ to: `+${phone.areaCode}${phone.number}`, text: smsText(grantorName, code) });
      } catch (error) {
        await deleteCode(db, id);
        request.log.error({ err: error, uuidTrx: transaction.uuidTrx }, 'SMS not sent');
        throw new HttpError(502, 'The SMS could not be sent', errorTexts.serviceUnavailable);
      }
      request.log.info({ uuidTrx: transaction.uuidTrx, sms: sender.kind }, 'SMS code sent');
      return { status: 200 };
    },
  });

  const verify = calls.verifySms;
  app.route({
    method: verify.method,
    url: verify.path,
    schema: { summary: verify.summary, tags: ['sms'], headers: verify.headers, body: verify.body, response: { 200: verify.response, ...errorResponses } },
    handler: async (request) => {
      const { grantor, transaction } = await authorizeTransaction(store, request.headers);
      const { client, phone } = request.body;
      if (client.uuid.toLowerCase() !== transaction.uuidUser) throw new HttpError(403, 'client.uuid is not the user of this transaction');
      const at = now();
      const stored = await latestCode(db, transaction.uuidTrx, phoneHash(key, phone.areaCode, phone.number));
      if (verifyState(stored, at) === 'already_verified') return { status: 200 };
      const code = stored!;
      if (!(await spendAttempt(db, code.id, smsRules.maxAttempts))) throw new HttpError(429, 'Too many wrong codes', smsTexts.exhausted);
      if (!codeMatches(key, code.salt, phone.token, code.codeHash)) {
        if (code.attempts + 1 >= smsRules.maxAttempts) await setCodeState(db, code.id, 'exhausted', at);
        request.log.info({ uuidTrx: transaction.uuidTrx, attempt: code.attempts + 1 }, 'wrong SMS code');
        throw new HttpError(400, 'Wrong code', errorTexts.smsFailed);
      }
      await setCodeState(db, code.id, 'verified', at);
      const evidence: PhoneVerification = { areaCode: phone.areaCode, number: phone.number, verifiedAt: at.toISOString() };
      await addEvidence(db, cipher, { uuidTrx: transaction.uuidTrx, grantorId: grantor.id, kind: evidenceKind.phoneVerified, payload: evidence }, at);
      request.log.info({ uuidTrx: transaction.uuidTrx }, 'SMS code verified');
      return { status: 200 };
    },
  });
}
