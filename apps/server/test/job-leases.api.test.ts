import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { claimJob, completeJob, enqueueJob, failJob, jobState, renewLease } from '../src/jobs/queue.js';
import { startJobWorker, type JobWorker } from '../src/jobs/worker.js';
import { createTestDatabase, engines, type TestDatabase } from './support/app.js';
import { waitFor } from './results/support.js';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

// Short leases renewed by a heartbeat (jobs/worker.ts): a killed worker's job is taken again within seconds, a
// long job is never run twice while its worker lives, and only the lease's owner records the end.
describe.each(engines)('job leases ($name)', (engine) => {
  let database: TestDatabase | undefined;
  const workers: JobWorker[] = [];
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.stop();
    await database?.close();
    database = undefined;
  });

  const open = async () => {
    database = await createTestDatabase(engine);
    return { ...database, cipher: createDataCipher(loadDataKey(database.config).key) };
  };

  it('a stale owner can neither renew, complete nor fail a job another worker claimed after its lease lapsed', async () => {
    const { db, cipher } = await open();
    const id = await enqueueJob(db, cipher, { kind: 'probe', payload: { n: 1 } });
    const t0 = new Date();
    const first = await claimJob(db, cipher, 'worker-a', 1_000, t0);
    expect(first?.id).toBe(id);
    expect(await claimJob(db, cipher, 'worker-b', 1_000, new Date(t0.getTime() + 500))).toBeUndefined();
    const second = await claimJob(db, cipher, 'worker-b', 1_000, new Date(t0.getTime() + 1_500));
    expect(second?.attempts).toBe(2);

    expect(await renewLease(db, id, 'worker-a', 1_000, new Date(t0.getTime() + 1_600))).toBe(false);
    expect(await completeJob(db, id, 'worker-a', new Date(t0.getTime() + 1_600))).toBe(false);
    expect(await failJob(db, first!, 'worker-a', 'late', new Date(t0.getTime() + 1_600))).toBe('lost');
    expect((await jobState(db, id))?.state).toBe('running');

    expect(await renewLease(db, id, 'worker-b', 1_000, new Date(t0.getTime() + 1_700))).toBe(true);
    expect(await completeJob(db, id, 'worker-b')).toBe(true);
    expect(await jobState(db, id)).toMatchObject({ state: 'done', attempts: 2, lastError: null });
    expect(await renewLease(db, id, 'worker-b', 1_000)).toBe(false);
  });

  it('the heartbeat keeps a job that outlives its lease with its worker: two polling workers run it once', async () => {
    const { db, cipher } = await open();
    const runs: string[] = [];
    const handler = (name: string) => async () => {
      runs.push(name);
      await new Promise((r) => setTimeout(r, 1_200));
    };
    for (const name of ['a', 'b']) {
      workers.push(startJobWorker({ db, cipher, log: silent, leaseMs: 300, pollMs: 25, handlers: { slow: handler(name) } }));
    }
    const id = await enqueueJob(db, cipher, { kind: 'slow', payload: {} });
    const done = await waitFor(async () => {
      const state = await jobState(db, id);
      return state?.state === 'done' ? state : undefined;
    });
    expect(done.attempts).toBe(1);
    expect(runs).toHaveLength(1);
  });

  it('a worker process killed with SIGKILL mid-job: another worker completes the job within 15 s, once', async () => {
    const { db, cipher, config } = await open();
    const id = await enqueueJob(db, cipher, { kind: 'lease-probe', payload: {}, requestId: 'req-lease-probe-1' });
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'test/support/job-worker-child.ts'], {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH ?? '',
        JOB_CHILD_DATABASE: JSON.stringify(database!.database),
        JOB_CHILD_KEY: loadDataKey(config).key.toString('base64'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await waitFor(async () => (stdout.includes(`running ${id}`) ? true : undefined), 30_000).catch((error: unknown) => {
        throw new Error(`the child worker did not start the job: ${stderr}`, { cause: error });
      });
      // The worker logs the request that enqueued the job.
      const started = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === 'job started');
      expect(started).toMatchObject({ jobId: id, kind: 'lease-probe', reqId: 'req-lease-probe-1' });

      // Its heartbeat moves the lease on while the handler runs.
      const leaseAt = async () => (await db.selectFrom('jobs').select('lease_until').where('id', '=', id).executeTakeFirstOrThrow()).lease_until;
      const firstLease = await leaseAt();
      await waitFor(async () => ((await leaseAt()) !== firstLease ? true : undefined), 10_000);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const killedAt = Date.now();

    const runs: string[] = [];
    workers.push(startJobWorker({ db, cipher, log: silent, handlers: { 'lease-probe': async (job) => void runs.push(job.id) } }));
    const done = await waitFor(
      async () => {
        const state = await jobState(db, id);
        return state?.state === 'done' ? state : undefined;
      },
      20_000,
      50,
    );
    const retriedAfterMs = Date.now() - killedAt;
    console.log(`job of the killed worker completed ${retriedAfterMs} ms after the kill`);
    expect(retriedAfterMs).toBeLessThan(15_000);
    expect(runs).toEqual([id]);
    expect(done.attempts).toBe(2);
  }, 60_000);
});
