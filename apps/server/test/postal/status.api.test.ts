import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueStatus, catalogueStatusLog } from '../../src/features/postal/index.js';
import { engines, startTestApp, type TestApp } from '../support/app.js';

describe.each(engines)('postal catalogue at start ($name)', (engine) => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await startTestApp(engine, { LOG_LEVEL: 'info' }, { logStream: { write: (line: string) => void lines.push(line) } });
  }, 60_000);
  afterAll(async () => t?.close());

  it('warns that only the demo sample is loaded and says how to import the official catalogue', async () => {
    const status = await catalogueStatus(t.db);
    expect(status.sampleOnly).toBe(true);
    expect(status.postalCodes).toBeGreaterThan(0);
    const warning = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).find((entry) => entry.msg.includes('postal catalogue'));
    expect(warning?.level).toBe(40);
    expect(warning?.msg).toContain('npm run postal:import');
    expect(warning?.msg).toContain(`${status.postalCodes} postal codes`);
  });
});

describe('the start-up line about the catalogue', () => {
  it('warns when nothing is loaded, informs with the counts when an official catalogue is', () => {
    expect(catalogueStatusLog({ settlements: 0, postalCodes: 0, source: null, sampleOnly: false })).toMatchObject({ level: 'warn', message: expect.stringContaining('postal:import') });
    expect(catalogueStatusLog({ settlements: 145_000, postalCodes: 31_000, source: 'CPdescarga.txt', sampleOnly: false })).toEqual({
      level: 'info',
      message: 'postal catalogue loaded: 31000 postal codes, 145000 settlements (CPdescarga.txt)',
    });
  });
});
