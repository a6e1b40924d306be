import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { enqueueJob, jobState } from '../src/jobs/queue.js';
import { engines, startSecondNode, startTestApp, type TestApp } from './support/app.js';
import { trxHeaders } from './support/fixtures.js';
import { waitFor } from './results/support.js';

// PROCESS_ROLE: an API process serves the flow and leaves durable jobs alone; a worker process runs them and
// serves only its health check. Both share one database (SQLite file or PostgreSQL).
describe.each(engines)('process roles ($name)', (engine) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp(engine, { PROCESS_ROLE: 'api', RATE_LIMITS: 'off' }, { jobs: { pollMs: 50 } });
  });
  afterAll(async () => api?.close());

  it('the API process answers the flow but runs no job; a worker process on the same database runs it and serves no API', async () => {
    const params = await api.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders() });
    expect(params.statusCode).toBe(200);

    const cipher = createDataCipher(loadDataKey(api.config).key);
    // A kind no feature handles: the worker that claims it records the failure, so its state shows who ran it.
    const id = await enqueueJob(api.db, cipher, { kind: 'role-probe', payload: {}, maxAttempts: 1 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await jobState(api.db, id))?.state).toBe('pending');

    const worker = await startSecondNode({ ...api, config: { ...api.config, processRole: 'worker' } }, { jobs: { pollMs: 50 } });
    try {
      const failed = await waitFor(async () => {
        const state = await jobState(api.db, id);
        return state?.state === 'failed' ? state : undefined;
      });
      expect(failed.state).toBe('failed');
      expect((await worker.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await worker.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders() })).statusCode).toBe(404);
    } finally {
      await worker.close();
    }
  });
});
