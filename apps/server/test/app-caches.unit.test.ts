import { describe, expect, it } from 'vitest';
import { AppCaches } from '../src/caches.js';
import { ReadCache } from '../src/store/read-cache.js';

describe('AppCaches', () => {
  it('keeps one value per slot until it is dropped or invalidated', () => {
    const caches = new AppCaches();
    let made = 0;
    const make = () => ({ n: ++made });
    const first = caches.slot('a', make);
    expect(caches.slot('a', make)).toBe(first);
    caches.drop('a');
    const second = caches.slot('a', make);
    expect(second).not.toBe(first);
    caches.slot('b', make);
    caches.invalidate();
    expect(caches.slot('a', make).n).toBe(4);
    expect(made).toBe(4);
  });

  it('two apps share nothing', () => {
    const one = new AppCaches();
    const two = new AppCaches();
    expect(one.slot('x', () => new Map())).not.toBe(two.slot('x', () => new Map()));
  });

  it('a read that started before a write fills the dropped cache, never the new one', async () => {
    const caches = new AppCaches();
    const cache = () => caches.slot('params', () => new ReadCache<string>(5_000));
    let release!: (value: string) => void;
    const slow = cache().get('g', () => new Promise<string>((resolve) => (release = resolve)));
    caches.drop('params'); // a write happened while the read was in flight
    release('old');
    expect(await slow).toBe('old');
    expect(await cache().get('g', async () => 'new')).toBe('new');
    expect(await cache().get('g', async () => 'not read again')).toBe('new');
  });
});
