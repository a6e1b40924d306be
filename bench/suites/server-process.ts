import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface Process {
  url: string;
  stop(): Promise<void>;
}

/** Spawns a node script listening on PORT and waits until `readyPath` answers 200. */
export async function startNodeProcess(script: string, readyPath: string, env: Record<string, string> = {}): Promise<Process> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kyc-bench-'));
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env };
  delete childEnv.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, [script], { env: childEnv, stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  // A loaded machine can need more than 30 s to start the server; a start that fails leaves nothing behind.
  const startMs = Number(process.env.BENCH_SERVER_START_MS ?? 90_000);
  const deadline = Date.now() + startMs;
  const giveUp = (reason: string): never => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(reason);
  };
  for (;;) {
    if (child.exitCode !== null) giveUp(`${script} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url + readyPath)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) giveUp(`${script} not ready after ${startMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
