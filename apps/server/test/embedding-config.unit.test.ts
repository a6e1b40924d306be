import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createDataCipher } from '../src/crypto/data-cipher.js';
import { launcherTokens, originAllowed, originOf } from '../src/features/launcher/tokens.js';

describe('embedding configuration', () => {
  it('reads the SMS gateway and the launcher token settings', () => {
    const secret = randomBytes(32).toString('base64');
    const config = loadConfig({
      DATA_DIR: '/tmp/x',
      SMS_GATEWAY_URL: 'https://sms.example/send',
      SMS_GATEWAY_TOKEN: 't0k3n',
      LAUNCHER_JWT_SECRET: secret,
      LAUNCHER_TOKEN_TTL_SECONDS: '300',
    });
    expect(config.smsGateway).toEqual({ url: 'https://sms.example/send', token: 't0k3n' });
    expect(config.launcherJwtSecret?.toString('base64')).toBe(secret);
    expect(config.launcherTokenTtlSeconds).toBe(300);
    const defaults = loadConfig({ DATA_DIR: '/tmp/x' });
    expect(defaults.smsGateway).toBeUndefined();
    expect(defaults.launcherTokenTtlSeconds).toBe(600);
    expect(defaults.launcherDist).toMatch(/packages\/launcher\/dist$/);
  });

  it('refuses bad values with a message naming them', () => {
    expect(() => loadConfig({ SMS_GATEWAY_URL: 'ftp://x' })).toThrow(/SMS_GATEWAY_URL/);
    expect(() => loadConfig({ SMS_GATEWAY_TOKEN: 'x' })).toThrow(ConfigError);
    expect(() => loadConfig({ LAUNCHER_JWT_SECRET: randomBytes(16).toString('base64') })).toThrow(/LAUNCHER_JWT_SECRET/);
    expect(() => loadConfig({ LAUNCHER_TOKEN_TTL_SECONDS: '5' })).toThrow(/LAUNCHER_TOKEN_TTL_SECONDS/);
  });

  it('derives separate keys per purpose from the data key, never the data key itself', () => {
    const key = randomBytes(32);
    const cipher = createDataCipher(key);
    const jwt = cipher.deriveKey('launcher-jwt');
    expect(jwt).toHaveLength(32);
    expect(jwt.equals(cipher.deriveKey('launcher-jwt'))).toBe(true);
    expect(jwt.equals(cipher.deriveKey('sms-codes'))).toBe(false);
    expect(jwt.equals(key)).toBe(false);
    expect(createDataCipher(randomBytes(32)).deriveKey('launcher-jwt').equals(jwt)).toBe(false);
  });
});

describe('launcher tokens', () => {
  it('round-trips its claims and refuses another key', async () => {
    const tokens = launcherTokens(randomBytes(32), 60);
    const token = await tokens.issue({ uuid: 'u-1', grantorId: 'g-1', origin: 'https://tienda.example' });
    await expect(tokens.verify(token)).resolves.toMatchObject({ uuid: 'u-1', grantorId: 'g-1', origin: 'https://tienda.example' });
    await expect(launcherTokens(randomBytes(32), 60).verify(token)).rejects.toThrow(/refused/);
    await expect(tokens.verify(token, new Date(Date.now() + 61_000))).rejects.toThrow(/expired/);
  });

  it('origins', () => {
    expect(originOf('https://tienda.example/a?b=c')).toBe('https://tienda.example');
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf('no')).toBeNull();
    expect(originAllowed('', 'https://any.example', true)).toBe(true);
    expect(originAllowed('', 'https://any.example', false)).toBe(false);
    expect(originAllowed('https://a.example, http://localhost:9000', 'http://localhost:9000', false)).toBe(true);
    expect(originAllowed('https://a.example', 'https://b.example', true)).toBe(false);
  });
});
