import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { cliBaseUrl, recordPublicUrl } from '../src/public-url-file.js';

describe('the base URL printed by the command-line tools', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kyc-public-url-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('is the one the last server on the same DATA_DIR printed, when the tool is given no PORT or PUBLIC_URL', () => {
    const dataDir = path.join(scratch(), 'data');
    const env = { DATA_DIR: dataDir };
    expect(cliBaseUrl(loadConfig(env), env)).toBe('http://localhost:8080');
    recordPublicUrl(loadConfig(env), 'http://localhost:9191');
    expect(cliBaseUrl(loadConfig(env), env)).toBe('http://localhost:9191');
  });

  it('follows PORT or PUBLIC_URL when the tool is given them', () => {
    const dataDir = scratch();
    recordPublicUrl(loadConfig({ DATA_DIR: dataDir }), 'http://localhost:9191');
    const withPort = { DATA_DIR: dataDir, PORT: '7070' };
    expect(cliBaseUrl(loadConfig(withPort), withPort)).toBe('http://localhost:7070');
    const withUrl = { DATA_DIR: dataDir, PUBLIC_URL: 'https://kyc.example.mx' };
    expect(cliBaseUrl(loadConfig(withUrl), withUrl)).toBe('https://kyc.example.mx');
  });
});
