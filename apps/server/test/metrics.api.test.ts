import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { enqueueJob } from '../src/jobs/queue.js';
import { engines, startSecondNode, startTestApp, type TestApp } from './support/app.js';
import { trxHeaders } from './support/fixtures.js';

const token = 'metrics-token-0123456789abcdef';
const auth = { authorization: `Bearer ${token}` };

/** The value of one sample line of the exposition text (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split('}')[0] ?? '';
    if (wanted.every((pair) => labelText.includes(pair))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

describe.each(engines)('/metrics ($name)', (engine) => {
  let api: TestApp;
  const scrape = async () => {
    const response = await api.app.inject({ method: 'GET', url: '/metrics', headers: auth });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    return response.body;
  };

  beforeAll(async () => {
    api = await startTestApp(engine, { PROCESS_ROLE: 'api', RATE_LIMITS: 'off', METRICS_TOKEN: token });
  });
  afterAll(async () => api?.close());

  it('refuses a scrape without the bearer token or with a wrong one, and shows no series', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789abcdef' }, { authorization: token }]) {
      const response = await api.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toContain('Bearer');
      expect(response.body).not.toContain('kyc_');
    }
  });

  it('counts requests per route pattern and status class in a latency histogram', async () => {
    const before = await scrape();
    const labels = { method: 'GET', route: '/v1/params', status_class: '2xx' };
    const countBefore = sample(before, 'kyc_http_request_duration_seconds_count', labels);
    for (let i = 0; i < 3; i += 1) {
      expect((await api.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders() })).statusCode).toBe(200);
    }
    const idOtorgante = 'no-such-grantor';
    const publicParams = await api.app.inject({ method: 'GET', url: `/v1/public/params/${idOtorgante}` });
    expect(publicParams.statusCode).toBeGreaterThanOrEqual(400);

    const after = await scrape();
    expect(sample(after, 'kyc_http_request_duration_seconds_count', labels)).toBe(countBefore + 3);
    expect(sample(after, 'kyc_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(countBefore + 3);
    expect(sample(after, 'kyc_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    // The route's pattern, never the raw URL (which would carry ids and grow without bound).
    const publicClass = `${Math.floor(publicParams.statusCode / 100)}xx`;
    expect(sample(after, 'kyc_http_request_duration_seconds_count', { route: '/v1/public/params/:idOtorgante', status_class: publicClass })).toBe(1);
    expect(after).not.toContain(idOtorgante);
  });

  it("shows the engines' slots, the job queue per kind with its oldest due age, and the process metrics", async () => {
    const cipher = createDataCipher(loadDataKey(api.config).key);
    await enqueueJob(api.db, cipher, { kind: 'metrics-probe', payload: {}, runAt: new Date(Date.now() - 60_000) });
    await enqueueJob(api.db, cipher, { kind: 'metrics-probe', payload: {}, runAt: new Date(Date.now() + 3_600_000) });
    const text = await scrape();
    expect(sample(text, 'kyc_engine_slots', { engine: 'ocr' })).toBe(4);
    expect(sample(text, 'kyc_engine_slots', { engine: 'face' })).toBe(2);
    expect(sample(text, 'kyc_engine_busy_slots', { engine: 'face' })).toBe(0);
    expect(sample(text, 'kyc_jobs_due', { kind: 'metrics-probe' })).toBe(1);
    expect(sample(text, 'kyc_jobs_oldest_due_age_seconds', { kind: 'metrics-probe' })).toBeGreaterThanOrEqual(59);
    expect(text).toContain('kyc_process_resident_memory_bytes');
    expect(text).toContain('kyc_nodejs_eventloop_lag_seconds');
  });

  it('a worker process serves its metrics too: the jobs it ran by kind and outcome', async () => {
    const cipher = createDataCipher(loadDataKey(api.config).key);
    await enqueueJob(api.db, cipher, { kind: 'worker-metrics-probe', payload: {}, maxAttempts: 1 });
    const worker = await startSecondNode({ ...api, config: { ...api.config, processRole: 'worker' } }, { jobs: { pollMs: 50 } });
    try {
      const deadline = Date.now() + 10_000;
      let text = '';
      while (Date.now() < deadline) {
        const response = await worker.app.inject({ method: 'GET', url: '/metrics', headers: auth });
        expect(response.statusCode).toBe(200);
        text = response.body;
        if (sample(text, 'kyc_jobs_finished_total', { kind: 'worker-metrics-probe', outcome: 'failed' }) === 1) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(sample(text, 'kyc_jobs_finished_total', { kind: 'worker-metrics-probe', outcome: 'failed' })).toBe(1);
      expect(sample(text, 'kyc_job_duration_seconds_count', { kind: 'worker-metrics-probe' })).toBe(1);
    } finally {
      await worker.close();
    }
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ name: 'sqlite' }, { RATE_LIMITS: 'off' });
  });
  afterAll(async () => api?.close());

  it('does not exist: 404 even with a bearer token, and it is not served as a page of the web app', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/metrics', headers: auth });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('kyc_');
    expect(response.headers['content-type']).toContain('application/json');
  });
});
