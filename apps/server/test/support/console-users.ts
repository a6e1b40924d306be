import { expect } from 'vitest';
import { runGrantorCommand } from '../../src/cli/grantor-commands.js';
import { createDataCipher, loadDataKey } from '../../src/crypto/data-cipher.js';
import { timeStep, totpAt } from '../../src/features/console/totp.js';
import type { TestApp } from './app.js';

/** A signed-in console user: the session cookie and the CSRF token its writes carry. */
export type ConsoleWho = { cookie: string; csrf: string };

const cookieOf = (res: { cookies: { name: string; value: string }[] }) => `kyc_console=${res.cookies.find((c) => c.name === 'kyc_console')?.value ?? ''}`;

/** `console-user-create` through the CLI: the printed password and, when required, the TOTP secret. */
export async function createConsoleUser(t: TestApp, ...argv: string[]) {
  const out: string[] = [];
  const code = await runGrantorCommand(t, ['console-user-create', ...argv], { out: (l) => out.push(l), err: () => undefined }, undefined, () => createDataCipher(loadDataKey(t.config).key));
  expect(code).toBe(0);
  const text = out.join('\n');
  const uri = /totp: +(otpauth:\/\/\S+)/.exec(text)?.[1];
  return { email: argv[argv.indexOf('--email') + 1]!, password: /password: (\S+)/.exec(text)![1]!, secret: uri ? new URL(uri).searchParams.get('secret')! : undefined };
}

/** Password, then the TOTP code when the user has one: the active session. */
export async function signInConsole(t: TestApp, created: Awaited<ReturnType<typeof createConsoleUser>>): Promise<ConsoleWho> {
  const post = (url: string, payload: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload, headers });
  const first = await post('/console/api/session', { email: created.email, password: created.password });
  if (first.json().stage === 'active') return { cookie: cookieOf(first), csrf: first.json().csrfToken };
  const second = await post('/console/api/session/totp', { code: totpAt(created.secret!, timeStep(new Date())) }, { cookie: cookieOf(first), 'x-csrf-token': first.json().csrfToken });
  expect(second.statusCode, second.body).toBe(200);
  return { cookie: cookieOf(second), csrf: second.json().csrfToken };
}
