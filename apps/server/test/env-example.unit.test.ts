import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { TEST_SCHEDULE_VARIABLE } from '../src/features/face-video/schedule.js';
import { costClasses, envName } from '../src/http/rate-limit-config.js';

const root = new URL('../../../', import.meta.url);
const read = (file: string) => readFileSync(fileURLToPath(new URL(file, root)), 'utf8');

/** The files that read the environment: config.ts and the parsers it calls, and the ffmpeg path. */
const sources = [
  'apps/server/src/config.ts',
  'apps/server/src/features/identity-checks/gateways/config.ts',
  'apps/server/src/features/realtime/config.ts',
  'apps/server/src/features/console/config.ts',
  'apps/server/src/engines/speech/config.ts',
  'apps/server/src/http/rate-limit-config.ts',
  'apps/server/src/engines/media/ffmpeg.ts',
];

/** Every variable the server reads: schema keys, env.X and env['X'], a helper's ('X', …) argument, the dynamic names. */
function variablesRead(): Set<string> {
  const names = new Set<string>([TEST_SCHEDULE_VARIABLE, ...costClasses.map(envName)]);
  const patterns = [/\b([A-Z][A-Z0-9_]+): *(?:optional|z\.|integer|flag)/g, /env\.([A-Z][A-Z0-9_]+)/g, /env\[['"]([A-Z][A-Z0-9_]+)['"]\]/g, /\(env, '([A-Z][A-Z0-9_]+)'/g];
  for (const file of sources) {
    const text = read(file);
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) names.add(match[1]!);
  }
  return names;
}

/** The README's Configuration table: its first column, `A`, `B` in one cell counting as two. */
function readmeVariables(): Set<string> {
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## RENAPO and INE gateways'));
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const cell = /^\| ([^|]+) \|/.exec(line)?.[1];
    if (!cell) continue;
    for (const match of cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1]!);
  }
  return names;
}

function envExample(): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of read('.env.example').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) values.set(match[1]!, match[2]!);
  }
  return values;
}

describe('the deployment kit', () => {
  it('.env.example names every setting the server reads and every one the README documents', () => {
    const example = envExample();
    const read = variablesRead();
    // The parsers were found: a broken pattern would make this test pass on nothing.
    expect(read.size).toBeGreaterThan(60);
    expect([...read].filter((name) => !example.has(name)).sort()).toEqual([]);
    expect([...readmeVariables()].filter((name) => !example.has(name)).sort()).toEqual([]);
    // And the README documents every setting read (the kit's file is not the only place a variable is explained).
    const documented = readmeVariables();
    expect([...read].filter((name) => !documented.has(name) && name !== 'NODE_ENV').sort()).toEqual([]);
  });

  it('.env.example, filled as compose.yaml fills it, is a valid configuration for every role', () => {
    const env: Record<string, string> = Object.fromEntries(envExample());
    Object.assign(env, {
      DATABASE_URL: 'postgres://kyc:secret@postgres:5432/kyc',
      DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      S3_BUCKET: 'kyc-evidence',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'kyc',
      S3_SECRET_ACCESS_KEY: 'secret-secret',
      REDIS_URL: 'redis://redis:6379',
    });
    for (const role of ['api', 'worker', 'both']) {
      const config = loadConfig({ ...env, PROCESS_ROLE: role }, false);
      expect(config).toMatchObject({ processRole: role, host: '0.0.0.0', demoGrantor: false, database: { kind: 'postgres' }, blobs: { kind: 's3', forcePathStyle: true } });
      expect(config.rateLimits.redisUrl).toBe('redis://redis:6379');
      expect(config.engineQueue).toEqual({ length: 16, waitMs: 30_000 });
    }
  });

  it('compose.yaml runs PostgreSQL, Redis, an S3-compatible store, two API nodes, a worker and a proxy, from the Dockerfile', () => {
    const compose = parseYaml(read('compose.yaml'), { merge: true }) as { services: Record<string, { build?: string; environment?: Record<string, string>; user?: string }> };
    expect(Object.keys(compose.services).sort()).toEqual(['api-1', 'api-2', 'bucket', 'minio', 'postgres', 'proxy', 'redis', 'worker']);
    const roles = Object.fromEntries(Object.entries(compose.services).flatMap(([name, s]) => (s.build ? [[name, s.environment?.PROCESS_ROLE]] : [])));
    expect(roles).toEqual({ 'api-1': 'api', 'api-2': 'api', worker: 'worker' });
    for (const name of ['api-1', 'api-2', 'worker']) {
      expect(compose.services[name]!.environment).toMatchObject({ REDIS_URL: 'redis://redis:6379', S3_ENDPOINT: 'http://minio:9000', TRUST_PROXY: 'true' });
    }
    const dockerfile = read('Dockerfile');
    // Debian base, a non-root user, ffmpeg and fonts installed, no browser.
    expect(dockerfile).toMatch(/^FROM node:20-bookworm-slim AS runtime$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/apt-get install[^\n]*\bffmpeg\b[^\n]*fonts-dejavu-core/);
    expect(dockerfile).not.toMatch(/chromium/);
  });
});
