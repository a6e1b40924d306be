import { describe, expect, it } from 'vitest';
import { detectSupport } from './support';

const modern = {
  fetch: () => undefined,
  Promise,
  crypto: { randomUUID: () => 'x' },
  navigator: { cookieEnabled: true },
  localStorage: {},
};

describe('browser support', () => {
  it('accepts a browser with fetch, Promise, crypto.randomUUID and working storage', () => {
    expect(detectSupport(modern, () => true)).toBe('ok');
  });

  it('"unsupported browser" when fetch, Promise, crypto.randomUUID or localStorage is missing', () => {
    const { localStorage: _omit, ...noStorage } = modern;
    expect(detectSupport({ ...modern, fetch: undefined }, () => true)).toBe('unsupported');
    expect(detectSupport({ ...modern, Promise: undefined }, () => true)).toBe('unsupported');
    expect(detectSupport({ ...modern, crypto: {} }, () => true)).toBe('unsupported');
    expect(detectSupport(noStorage, () => true)).toBe('unsupported');
  });

  it('"cookies disabled" when storage is refused', () => {
    expect(detectSupport(modern, () => false)).toBe('cookies');
    expect(detectSupport({ ...modern, navigator: { cookieEnabled: false } }, () => true)).toBe('cookies');
  });
});
