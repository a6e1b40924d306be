import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningServer } from './server.js';
import { grantorCli } from './transactions.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file: string) => path.join(root, 'apps/server/dist', file);

/** The server's own modules on its data folder: the result e-mail's address (as the flow's last step stores it) and the outbox. */
async function serverModules(server: RunningServer) {
  const { loadConfig } = (await import(dist('config.js'))) as typeof import('../../apps/server/src/config.js');
  const { createDatabase } = (await import(dist('store/db.js'))) as typeof import('../../apps/server/src/store/db.js');
  const { createDataCipher, loadDataKey } = (await import(dist('crypto/data-cipher.js'))) as typeof import('../../apps/server/src/crypto/data-cipher.js');
  const { claimResultEmail } = (await import(dist('features/results/result-emails.js'))) as typeof import('../../apps/server/src/features/results/result-emails.js');
  const { listOutbox } = (await import(dist('mail/mailer.js'))) as typeof import('../../apps/server/src/mail/mailer.js');
  const config = loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' });
  return { config, createDatabase, cipher: createDataCipher(loadDataKey(config).key), claimResultEmail, listOutbox };
}

export interface FlowHeaders {
  apikey: string;
  transaccion: string;
  cliente: string;
}

/** One lifecycle event of the flow (`/v1/update_cycle`), as the web sends it. */
export async function sendLifecycle(server: RunningServer, headers: FlowHeaders, event: { grantorId: string; step: string; status: string; description: string; name: string }): Promise<void> {
  const body = {
    trx_id: headers.transaccion,
    company_id: event.grantorId,
    client_id: headers.cliente,
    step: event.step,
    event: JSON.stringify({ status: event.status, step: event.step, description: event.description }),
    origin: 'celd',
    nombreCompleto: event.name,
  };
  const response = await fetch(`${server.url}/v1/update_cycle`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

/** The case's result e-mail address, where a redo link goes. */
export async function giveCaseEmail(server: RunningServer, uuidTrx: string, email: string): Promise<void> {
  const m = await serverModules(server);
  const db = m.createDatabase(m.config.database);
  try {
    await m.claimResultEmail(db, m.cipher, uuidTrx, email, 2);
  } finally {
    await db.destroy();
  }
}

/** The redo link of the e-mail in the server's outbox, as a URL on this server. */
export async function mailedRedoLink(server: RunningServer, email: string): Promise<string> {
  const m = await serverModules(server);
  const decoded = async () =>
    (await m.listOutbox(server.dataDir, m.cipher)).map((mail) => mail.eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).find((eml) => eml.includes(`To: ${email}`) && eml.includes('/repetir?token='));
  await expect.poll(async () => (await decoded()) !== undefined, { timeout: 60_000 }).toBe(true);
  const mailed = new URL(/(http\S+\/repetir\?token=[A-Za-z0-9._-]+)/.exec((await decoded())!)![1]!);
  return `${server.url}${mailed.pathname}${mailed.search}`;
}

/** A reviewer of the demo grantor created through the CLI, signed in on `page` (the case list shown). */
export async function signInReviewer(page: Page, server: RunningServer, grantorId: string, email: string): Promise<void> {
  const password = /password: (\S+)/.exec(await grantorCli(server, ['console-user-create', '--grantor', grantorId, '--email', email, '--role', 'reviewer']))![1]!;
  await page.goto(`${server.url}/console`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

/** In the open case file: ask the customer to redo `step` for `reason`, with a note; the redo summary shown. */
export async function askRedo(page: Page, ask: { step: string; reason: string; note: string }): Promise<void> {
  await expect.poll(() => page.getByLabel('Solicitar repetir un paso').isVisible(), { timeout: 15_000 }).toBe(true);
  await page.getByLabel('Solicitar repetir un paso').check();
  await page.getByLabel('Paso a repetir').selectOption(ask.step);
  await page.getByLabel('Motivo').selectOption(ask.reason);
  await page.getByLabel('Nota').fill(ask.note);
  await page.getByRole('button', { name: 'Enviar enlace para repetir el paso' }).click();
  await expect.poll(() => page.getByText('Repetición solicitada').first().isVisible(), { timeout: 15_000 }).toBe(true);
}
