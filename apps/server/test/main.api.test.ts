import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/** Runs src/main.ts in a child process (tsx, source condition) with a clean environment. */
function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('main process', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kyc-main-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints the configuration error and exits 1 on a bad PORT', async () => {
    const run = startMain({ PORT: 'abc', DATA_DIR: dataDir });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toContain('Invalid configuration: PORT must be an integer 1-65535');
  });

  it('starts, prints the demo URL, answers, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const run = startMain({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'none') });
    await waitFor(() => run.output().stdout.includes('Onboarding listo'), 20_000);
    expect(run.output().stdout).toContain(`Onboarding listo en http://localhost:${port}/demo`);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const params = await fetch(`http://127.0.0.1:${port}/v1/params`, {
      headers: { apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID() },
    });
    expect(params.status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });
});
