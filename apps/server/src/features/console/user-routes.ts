import { consolePaths, consoleStaffUserCreate, consoleStaffUserCredentials, consoleStaffUserUpdate, consoleStaffUsers, consoleFieldErrors } from '@kyc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { fieldErrors, type ConsoleKit } from './kit.js';
import { createStaff, emailPattern, findStaff, listStaff, otherActiveAdmins, resetTotp, updateStaff } from './staff.js';
import * as store from './store.js';

const userParams = z.object({ userId: z.string().max(64) });
const userNotFound = () => new HttpError(404, 'Console user not found', 'No encontramos ese usuario.');

/**
 * The grantor's staff users (issue #16): list, create (password and TOTP shown once, as the CLI prints them),
 * change role, disable or enable, reset the second factor. Admins only; an admin changes neither their own role
 * nor their own access, and no change leaves the grantor without an active admin. Every change is audited.
 */
export function registerUserRoutes(app: ZodApp, kit: ConsoleKit): void {
  const { db, cipher, errors, hidden } = kit;

  const admin = (request: FastifyRequest, reply: FastifyReply, csrf = false) =>
    kit.signedInAdmin(request, reply, csrf, { action: 'settings_refused', message: 'Only an admin manages users', text: 'Solo un administrador puede ver y cambiar la configuración.' });

  /** Another user of the admin's grantor (another grantor's answers as missing); never the admin themselves. */
  async function target(grantorId: string, self: store.ConsoleUser, rawId: string) {
    const found = await findStaff(db, grantorId, rawId.toLowerCase());
    if (!found) throw userNotFound();
    if (found.id === self.id) throw new HttpError(409, 'An admin does not change their own access', 'No puedes cambiar tu propio rol, acceso ni segundo factor: pídeselo a otro administrador.');
    return found;
  }

  app.get(consolePaths.settingsUsers, { schema: { ...hidden, response: { 200: consoleStaffUsers, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply);
    await store.audit(db, { action: 'settings_viewed', userId: user.id, grantorId, ip: request.ip, detail: { area: 'users' } });
    return { users: await listStaff(db, grantorId) };
  });

  const createSchema = { ...hidden, body: consoleStaffUserCreate, response: { 200: consoleStaffUserCredentials, ...errors, 400: consoleFieldErrors.or(errors[400]) } };
  app.post(consolePaths.settingsUsers, { schema: createSchema }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply, true);
    const email = store.normaliseEmail(request.body.email);
    if (!emailPattern.test(email)) return fieldErrors(reply, { email: 'Escribe un correo electrónico válido.' });
    // E-mail addresses are unique across grantors; the answer does not say whose it is.
    if (await store.findUserByEmail(db, cipher, email)) return fieldErrors(reply, { email: 'Ya existe un usuario con ese correo.' });
    const created = await createStaff(db, cipher, grantorId, { email, role: request.body.role, totp: request.body.totp });
    await store.audit(db, { action: 'user_created', userId: user.id, grantorId, ip: request.ip, detail: { target: created.id, role: request.body.role, totp: created.totpUri !== null } });
    return { user: (await findStaff(db, grantorId, created.id))!, password: created.password, totpUri: created.totpUri };
  });

  app.patch(consolePaths.settingsUser, { schema: { ...hidden, params: userParams, body: consoleStaffUserUpdate, response: { 200: consoleStaffUsers, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply, true);
    const { role, active } = request.body;
    if (role === undefined && active === undefined) throw new HttpError(400, 'Invalid request: nothing to change (role or active)');
    const found = await target(grantorId, user, request.params.userId);
    const losesAdmin = found.role === 'admin' && found.active && ((role !== undefined && role !== 'admin') || active === false);
    if (losesAdmin && (await otherActiveAdmins(db, grantorId, found.id)) === 0) {
      throw new HttpError(409, 'The last active admin stays', 'Debe quedar al menos un administrador activo.');
    }
    if (role === 'admin' && !found.totp) throw new HttpError(409, 'An admin needs a second factor first', 'Restablece primero su segundo factor: un administrador lo necesita para entrar.');
    await updateStaff(db, found.id, { ...(role !== undefined ? { role } : {}), ...(active !== undefined ? { active } : {}) });
    await store.audit(db, {
      action: 'user_updated',
      userId: user.id,
      grantorId,
      ip: request.ip,
      detail: { target: found.id, before: { role: found.role, active: found.active }, role: role ?? null, active: active ?? null },
    });
    return { users: await listStaff(db, grantorId) };
  });

  app.post(consolePaths.settingsUserTotp, { schema: { ...hidden, params: userParams, response: { 200: consoleStaffUserCredentials, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply, true);
    const found = await target(grantorId, user, request.params.userId);
    const totpUri = await resetTotp(db, cipher, found.id, found.email);
    await store.audit(db, { action: 'user_totp_reset', userId: user.id, grantorId, ip: request.ip, detail: { target: found.id } });
    return { user: (await findStaff(db, grantorId, found.id))!, password: null, totpUri };
  });
}
