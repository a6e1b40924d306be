import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningServer } from './server.js';
import { serverModule, withServerData } from './server-data.js';
import { grantorCli } from './transactions.js';

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
  const { claimResultEmail } = await serverModule<typeof import('../../apps/server/src/features/results/result-emails.js')>('features/results/result-emails.js');
  await withServerData(server, ({ db, cipher }) => claimResultEmail(db, cipher, uuidTrx, email, 2));
}

/** The redo link of the e-mail in the server's outbox, as a URL on this server. */
export async function mailedRedoLink(server: RunningServer, email: string): Promise<string> {
  const { listOutbox } = await serverModule<typeof import('../../apps/server/src/mail/mailer.js')>('mail/mailer.js');
  const cipher = await withServerData(server, async (data) => data.cipher);
  const decoded = async () =>
    (await listOutbox(server.dataDir, cipher)).map((mail) => mail.eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).find((eml) => eml.includes(`To: ${email}`) && eml.includes('/repetir?token='));
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
