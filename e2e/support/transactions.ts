import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { RunningServer } from './server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

/** Runs the built grantor CLI against the server's SQLite data dir; resolves to its stdout. */
export async function grantorCli(server: RunningServer, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [path.join(root, 'apps/server/dist/cli/grantor.js'), ...args], {
    env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' },
  });
  return stdout;
}

export interface TransactionEvents {
  transaction: { attempts: Record<string, number>; lockedUntil: string | null };
  lifecycle: { step: string; event: string }[];
  audit: { paso: string; tipo: string; dato: string }[];
  evidence?: { kind: string }[];
}

const secrets = new Map<string, string>();

/**
 * A secret server key of the grantor of `apikey`: the demo grantor's documented `demo-secret`, otherwise one created
 * once with the grantor CLI (the grantor found by its key prefix in `list`).
 */
export async function serverSecret(server: RunningServer, apikey: string): Promise<string> {
  if (apikey === 'demo') return 'demo-secret';
  const cached = secrets.get(apikey);
  if (cached) return cached;
  const row = (await grantorCli(server, ['list'])).split('\n').find((line) => {
    const prefix = /\s(\S+)…\s/.exec(line)?.[1];
    return prefix !== undefined && apikey.startsWith(prefix);
  });
  const grantorId = row?.split(/\s+/)[0];
  if (!grantorId) throw new Error(`no grantor listed for the api key ${apikey.slice(0, 6)}…`);
  const secret = /key: (sk_live_\S+)/.exec(await grantorCli(server, ['secret-create', grantorId]))?.[1];
  if (!secret) throw new Error('secret-create printed no key');
  secrets.set(apikey, secret);
  return secret;
}

/** `GET /v1/transactions/:uuidTrx/events` as the grantor of `apikey` (with its secret server key), expecting 200. */
export async function transactionEvents(server: RunningServer, apikey: string, uuidTrx: string): Promise<TransactionEvents> {
  const secret = await serverSecret(server, apikey);
  const response = await fetch(`${server.url}/v1/transactions/${uuidTrx}/events`, { headers: { authorization: `Bearer ${secret}` } });
  expect(response.status).toBe(200);
  return (await response.json()).payload as TransactionEvents;
}
