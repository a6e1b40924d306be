import { describe, expect, it } from 'vitest';
import { findNul } from '../src/http/nul-guard.js';

describe('the NUL guard', () => {
  it('finds U+0000 in a parsed string or key, and leaves a binary body alone (bytes, not text)', () => {
    expect(findNul({ a: { b: 'x\u0000y' } })).toBe('a.b');
    expect(findNul({ ['k\u0000']: 1 })).toBe('k\\u0000');
    expect(findNul({ a: ['ok'] })).toBeUndefined();
    // The engine service's frames are not walked byte by byte (a video's frames made that run out of memory): even a
    // key set on the array is not looked at.
    const frame = Object.assign(new Uint8Array(1024 * 1024), { ['\u0000']: 1 });
    expect(findNul({ frames: [frame], image: Buffer.alloc(16) })).toBeUndefined();
  });
});
