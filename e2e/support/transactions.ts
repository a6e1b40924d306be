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

/** `GET /v1/transactions/:uuidTrx/events` as the grantor of `apikey`, expecting 200. */
export async function transactionEvents(server: RunningServer, apikey: string, uuidTrx: string): Promise<TransactionEvents> {
  const response = await fetch(`${server.url}/v1/transactions/${uuidTrx}/events`, { headers: { apikey } });
  expect(response.status).toBe(200);
  return (await response.json()).payload as TransactionEvents;
}
