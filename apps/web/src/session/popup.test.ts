import { describe, expect, it } from 'vitest';
import { refererOrigin } from './popup';

describe('opener messages go only to the referer origin', () => {
  it('takes the origin of an http(s) referer', () => {
    expect(refererOrigin('https://partner.example:8443/path?q=1')).toBe('https://partner.example:8443');
    expect(refererOrigin('http://localhost:3000/')).toBe('http://localhost:3000');
  });

  it('refuses anything else (never "*")', () => {
    for (const bad of [null, '', '*', 'partner.example', 'javascript:alert(1)', 'data:text/html,x']) {
      expect(refererOrigin(bad)).toBeNull();
    }
  });
});
