import {
  consoleFieldErrors,
  consoleParams,
  consoleParamsUpdate,
  consolePaths,
  consoleRetention,
  consoleRetentionUpdate,
  consoleSecretKeyCreate,
  consoleSecretKeyCreated,
  consoleSecretKeys,
  grantorParamDefaults,
} from '@kyc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { effectiveParams, isKnownParamId, managedParamIds, paramValueProblem } from '../../domain/grantor-params.js';
import type { ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { generateSecretKey } from '../../secret-keys/keys.js';
import * as secretKeys from '../../secret-keys/store.js';
import { deleteParams, findGrantorById, readStoredParams, writeParams } from '../../store/grantors.js';
import { policyLimits, policyProblem, readPolicy, writePolicy } from '../retention/policy.js';
import { fieldErrors, type ConsoleKit } from './kit.js';
import { paramProblemText } from './param-texts.js';
import * as store from './store.js';

const id = z.string().max(64);
const keyNotFound = () => new HttpError(404, 'Secret key not found', 'No encontramos esa clave.');

const wireKey = (k: secretKeys.SecretKey) => ({ id: k.id, hint: k.hint, label: k.label, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt });

/**
 * Settings of the admin's own grantor, or of the grantor a platform operator names with `grantorId` (issue #16):
 * parameters, secret server keys and retention. A reviewer and a viewer get 403 (audited). Every change is audited and
 * needs the session's CSRF token; another grantor's key answers like a missing one.
 */
export function registerSettingsRoutes(app: ZodApp, kit: ConsoleKit): void {
  const { db, errors, hidden } = kit;
  const withFields = { ...errors, 400: consoleFieldErrors.or(errors[400]) };

  /** The signed-in admin and their grantor; anyone else 403, audited. */
  const admin = (request: FastifyRequest, reply: FastifyReply, csrf = false) => kit.signedInAdmin(request, reply, csrf);
  /** Audited under the grantor acted on (a platform operator's choice, or the admin's own). */
  const audit = (request: FastifyRequest, user: store.ConsoleUser, grantorId: string, action: store.AuditAction, detail: Record<string, unknown> = {}) =>
    store.audit(db, { action, userId: user.id, grantorId, ip: request.ip, detail });

  async function paramsOf(grantorId: string) {
    const grantor = (await findGrantorById(db, grantorId))!;
    const stored = await readStoredParams(kit, grantorId);
    const list = effectiveParams(grantor, stored).filter((p) => !managedParamIds.has(p.idCampo) && isKnownParamId(p.idCampo));
    return { params: list.map((p) => ({ id: p.idCampo, value: p.valor, defaultValue: grantorParamDefaults[p.idCampo as keyof typeof grantorParamDefaults], stored: p.idCampo in stored })) };
  }

  app.get(consolePaths.settingsParams, { schema: { ...hidden, response: { 200: consoleParams, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply);
    await audit(request, user, grantorId, 'settings_viewed', { area: 'params' });
    return paramsOf(grantorId);
  });

  app.put(consolePaths.settingsParams, { schema: { ...hidden, body: consoleParamsUpdate, response: { 200: consoleParams, ...withFields } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply, true);
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.body.values)) {
      if (!isKnownParamId(key) || managedParamIds.has(key)) fields[key] = 'Este parámetro no se cambia desde la consola.';
      else if (paramValueProblem(key, value)) fields[key] = paramProblemText(key, value);
    }
    if (Object.keys(fields).length > 0) return fieldErrors(reply, fields);
    const entries = Object.entries(request.body.values);
    const cleared = entries.filter(([, v]) => v === '').map(([k]) => k);
    await writeParams(kit, grantorId, Object.fromEntries(entries.filter(([, v]) => v !== '')));
    await deleteParams(kit, grantorId, cleared);
    // The names changed, not the values: a text may hold a contact's data.
    await audit(request, user, grantorId, 'params_updated', { changed: entries.map(([k]) => k).sort(), cleared });
    return paramsOf(grantorId);
  });

  app.get(consolePaths.settingsKeys, { schema: { ...hidden, response: { 200: consoleSecretKeys, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply);
    await audit(request, user, grantorId, 'settings_viewed', { area: 'keys' });
    return { keys: (await secretKeys.listSecretKeys(db, grantorId)).map(wireKey) };
  });

  async function createKey(grantorId: string, label: string) {
    const secret = generateSecretKey();
    const keyId = await secretKeys.insertSecretKey(db, { grantorId, key: secret, label });
    return { key: wireKey((await secretKeys.findSecretKeyById(db, keyId))!), secret };
  }

  app.post(consolePaths.settingsKeys, { schema: { ...hidden, body: consoleSecretKeyCreate, response: { 200: consoleSecretKeyCreated, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply, true);
    const created = await createKey(grantorId, request.body.label);
    await audit(request, user, grantorId, 'secret_key_created', { keyId: created.key.id, hint: created.key.hint });
    return { ...created, revoked: null };
  });

  async function ownKey(grantorId: string, keyId: string) {
    const key = await secretKeys.findSecretKeyById(db, keyId.toLowerCase());
    if (!key || key.grantorId !== grantorId) throw keyNotFound();
    return key;
  }

  app.post(consolePaths.settingsKeyRotate, { schema: { ...hidden, params: z.object({ keyId: id }), response: { 200: consoleSecretKeyCreated, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply, true);
    const old = await ownKey(grantorId, request.params.keyId);
    if (old.revokedAt) throw new HttpError(409, 'The key is revoked', 'Esa clave ya está revocada: crea una nueva.');
    // The new key exists before the old one is revoked: a caller is never left without a valid key by a failure between.
    const created = await createKey(grantorId, old.label);
    await secretKeys.revokeSecretKey(db, old.id);
    await audit(request, user, grantorId, 'secret_key_rotated', { keyId: created.key.id, hint: created.key.hint, revoked: old.id });
    return { ...created, revoked: old.id };
  });

  app.post(consolePaths.settingsKeyRevoke, { schema: { ...hidden, params: z.object({ keyId: id }), response: { 200: consoleSecretKeys, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply, true);
    const key = await ownKey(grantorId, request.params.keyId);
    if (!(await secretKeys.revokeSecretKey(db, key.id))) throw new HttpError(409, 'The key was already revoked', 'Esa clave ya estaba revocada.');
    await audit(request, user, grantorId, 'secret_key_revoked', { keyId: key.id, hint: key.hint });
    return { keys: (await secretKeys.listSecretKeys(db, grantorId)).map(wireKey) };
  });

  const retentionOf = async (grantorId: string) => ({ ...(await readPolicy(db, grantorId)), limits: policyLimits });

  app.get(consolePaths.settingsRetention, { schema: { ...hidden, response: { 200: consoleRetention, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply);
    await audit(request, user, grantorId, 'settings_viewed', { area: 'retention' });
    return retentionOf(grantorId);
  });

  app.put(consolePaths.settingsRetention, { schema: { ...hidden, body: consoleRetentionUpdate, response: { 200: consoleRetention, ...withFields } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply, true);
    const next = request.body;
    const problem = policyProblem(next);
    if (problem) return fieldErrors(reply, retentionFields(next));
    const before = await readPolicy(db, grantorId);
    await writePolicy(db, grantorId, next, `console:${user.email}`);
    await audit(request, user, grantorId, 'retention_updated', { before: { biometricDays: before.biometricDays, fileYears: before.fileYears }, after: next });
    return retentionOf(grantorId);
  });
}

/** Which retention field is refused, in Spanish (the rules of retention/policy.ts policyProblem). */
function retentionFields(policy: { biometricDays: number; fileYears: number }): Record<string, string> {
  const { biometricDays: d, fileYears: y } = policyLimits;
  const fields: Record<string, string> = {};
  if (!Number.isInteger(policy.biometricDays) || policy.biometricDays < d.min || policy.biometricDays > d.max) fields.biometricDays = `Debe ser un número entero de ${d.min} a ${d.max} días.`;
  if (!Number.isInteger(policy.fileYears) || policy.fileYears < y.min || policy.fileYears > y.max) fields.fileYears = `Debe ser un número entero de ${y.min} a ${y.max} años.`;
  if (Object.keys(fields).length === 0) fields.biometricDays = 'Los medios biométricos no pueden conservarse más tiempo que el expediente.';
  return fields;
}
