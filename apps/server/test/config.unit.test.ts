import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig, publicBaseUrl } from '../src/config.js';
import { configErrorMessage } from './support/config-error.js';

const key = Buffer.alloc(32, 7).toString('base64');
const message = configErrorMessage;

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({}, false);
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      logFormat: 'json',
      dataDir: path.resolve('./data'),
      database: { kind: 'sqlite', file: path.resolve('./data/onboarding.sqlite') },
      logLevel: 'info',
      demoGrantor: true,
      publicUrl: undefined,
      dataEncryptionKey: undefined,
      jsonBodyLimit: 1024 * 1024,
      uploadLimit: 15 * 1024 * 1024,
      trustProxy: false,
      shutdownTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      headersTimeoutMs: 15_000,
    });
    const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));
    expect(config.webDist).toBe(webDist);
  });

  it('writes human-readable logs on a terminal unless LOG_FORMAT says otherwise', () => {
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '18080',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/kyc-data',
      DATABASE_URL: 'postgresql://kyc@db:5432/kyc',
      LOG_LEVEL: 'warn',
      DEMO_GRANTOR: 'false',
      PUBLIC_URL: 'https://kyc.example.mx/',
      DATA_ENCRYPTION_KEY: key,
      JSON_BODY_LIMIT: '2048',
      UPLOAD_LIMIT: '1048576',
      WEB_DIST: '/srv/web',
      TRUST_PROXY: 'true',
      SHUTDOWN_TIMEOUT_MS: '5000',
    });
    expect(config).toMatchObject({
      port: 18080,
      host: '127.0.0.1',
      dataDir: '/tmp/kyc-data',
      database: { kind: 'postgres', url: 'postgresql://kyc@db:5432/kyc' },
      logLevel: 'warn',
      demoGrantor: false,
      publicUrl: 'https://kyc.example.mx',
      jsonBodyLimit: 2048,
      uploadLimit: 1048576,
      webDist: '/srv/web',
      trustProxy: true,
      shutdownTimeoutMs: 5000,
    });
    expect(config.dataEncryptionKey?.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(publicBaseUrl(config)).toBe('https://kyc.example.mx');
    expect(publicBaseUrl(loadConfig({ PORT: '9000' }))).toBe('http://localhost:9000');
  });

  it('traces only when an OTLP/HTTP collector is named: the traces URL as given, or the base endpoint with /v1/traces', () => {
    expect(loadConfig({}, false).tracing).toEqual({ endpoint: undefined, serviceName: 'kyc-onboarding' });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }, false).tracing.endpoint).toBe('http://collector:4318/v1/traces');
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp', OTEL_SERVICE_NAME: 'kyc-api' }, false).tracing,
    ).toEqual({
      endpoint: 'https://traces.example/otlp',
      serviceName: 'kyc-api',
    });
    expect(message({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toContain('OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL');
  });

  it('sizes the engines per node only when ENGINE_WORKERS says so', () => {
    expect(loadConfig({}, false).engineWorkers).toBeUndefined();
    expect(loadConfig({ ENGINE_WORKERS: '1' }, false).engineWorkers).toBe(1);
    expect(message({ ENGINE_WORKERS: '0' })).toContain('ENGINE_WORKERS must be an integer 1-16');
  });

  it('sends the engines to the workers only with their URLs and token; a worker serves them with the token', () => {
    const token = 'a'.repeat(48);
    expect(loadConfig({}, false).engineService).toEqual({ urls: [], token: undefined });
    expect(loadConfig({ ENGINE_SERVICE_URL: 'http://worker-1:8080, http://worker-2:8080', ENGINE_SERVICE_TOKEN: token }, false).engineService).toEqual({
      urls: ['http://worker-1:8080', 'http://worker-2:8080'],
      token,
    });
    expect(message({ ENGINE_SERVICE_URL: 'http://worker-1:8080' })).toContain('ENGINE_SERVICE_URL needs ENGINE_SERVICE_TOKEN');
    expect(message({ ENGINE_SERVICE_URL: 'worker-1:8080', ENGINE_SERVICE_TOKEN: token })).toContain('ENGINE_SERVICE_URL must be http:// or https:// URLs');
    expect(message({ ENGINE_SERVICE_URL: 'http://worker-1:8080', ENGINE_SERVICE_TOKEN: token, PROCESS_ROLE: 'worker' })).toContain('ENGINE_SERVICE_URL is for API nodes');
    expect(message({ ENGINE_SERVICE_TOKEN: 'short' })).toContain('ENGINE_SERVICE_TOKEN must be 24 to 200');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(8080);
  });

  it('names the variable of a bad value', () => {
    expect(message({ PORT: 'abc' })).toBe('Invalid configuration: PORT must be an integer 1-65535');
    expect(message({ PORT: '70000' })).toBe('Invalid configuration: PORT must be an integer 1-65535');
    expect(message({ DATABASE_URL: 'mysql://root@db/kyc' })).toBe(
      'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset to use the embedded SQLite database)',
    );
    expect(message({ LOG_LEVEL: 'loud' })).toContain('LOG_LEVEL must be one of');
    expect(message({ DEMO_GRANTOR: 'yes' })).toBe("Invalid configuration: DEMO_GRANTOR must be 'true' or 'false'");
    expect(message({ DATA_ENCRYPTION_KEY: 'c2hvcnQ=' })).toContain('DATA_ENCRYPTION_KEY must be 32 bytes encoded in base64');
    expect(message({ PUBLIC_URL: 'kyc.example' })).toContain('PUBLIC_URL must be an http:// or https:// URL');
    expect(message({ JSON_BODY_LIMIT: '1MB' })).toContain('JSON_BODY_LIMIT must be an integer');
  });

  it('lists every bad variable at once', () => {
    expect(message({ PORT: 'abc', TRUST_PROXY: '1' })).toBe("Invalid configuration: PORT must be an integer 1-65535; TRUST_PROXY must be 'true' or 'false'");
  });

  it('requires a shared DATA_ENCRYPTION_KEY with PostgreSQL', () => {
    expect(message({ DATABASE_URL: 'postgres://db/kyc' })).toContain('DATA_ENCRYPTION_KEY is required with DATABASE_URL');
  });
});
