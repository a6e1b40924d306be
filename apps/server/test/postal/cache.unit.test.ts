import { describe, expect, it } from 'vitest';
import { LookupCache } from '../../src/features/postal/cache.js';

const roma = [{ municipio: 'Cuauhtémoc', estado: 'Ciudad de México', asentamiento: 'Roma Norte' }];

describe('LookupCache', () => {
  it('evicts the least recently used code beyond its size', () => {
    const cache = new LookupCache({ maxEntries: 2, ttlMs: 60_000 });
    cache.set('01000', [], cache.generation, 0);
    cache.set('06700', roma, cache.generation, 0);
    expect(cache.get('01000', 1)).toEqual([]);
    cache.set('52140', [], cache.generation, 2);
    expect(cache.size).toBe(2);
    expect(cache.get('06700', 3)).toBeUndefined();
    expect(cache.get('01000', 3)).toEqual([]);
    expect(cache.get('52140', 3)).toEqual([]);
  });

  it('forgets entries after their time to live', () => {
    const cache = new LookupCache({ maxEntries: 10, ttlMs: 1_000 });
    cache.set('06700', roma, cache.generation, 0);
    expect(cache.get('06700', 999)).toBe(roma);
    expect(cache.get('06700', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('ignores a result computed before the last clear', () => {
    const cache = new LookupCache();
    const before = cache.generation;
    cache.clear();
    cache.set('06700', roma, before);
    expect(cache.get('06700')).toBeUndefined();
    cache.set('06700', roma, cache.generation);
    expect(cache.get('06700')).toBe(roma);
  });
});
