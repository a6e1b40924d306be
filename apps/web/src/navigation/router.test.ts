import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBrowserRouter, RouteNotFoundError, type ScreenRoute } from './router';

/** window.location and window.history over an in-memory entry list (the unit project has no DOM). */
class FakeWindow {
  entries: Array<{ url: URL; state: unknown }>;
  index = 0;
  private popListeners: Array<() => void> = [];

  constructor(href: string, state: unknown = null) {
    this.entries = [{ url: new URL(href), state }];
  }

  get location(): URL {
    return this.entries[this.index]!.url;
  }

  readonly history = {
    get state(): unknown {
      return fake.entries[fake.index]!.state;
    },
    pushState(state: unknown, _title: string, href: string) {
      fake.entries.splice(fake.index + 1);
      fake.entries.push({ url: new URL(href, fake.location), state });
      fake.index += 1;
    },
    replaceState(state: unknown, _title: string, href?: string) {
      fake.entries[fake.index] = { url: href ? new URL(href, fake.location) : fake.location, state };
    },
  };

  addEventListener(type: string, listener: () => void) {
    if (type === 'popstate') this.popListeners.push(listener);
  }

  back() {
    this.index -= 1;
    for (const listener of this.popListeners) listener();
  }
}

let fake: FakeWindow;
const Screen = () => null;

function deferred() {
  let resolve!: (value: { Component: typeof Screen }) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<{ Component: typeof Screen }>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function table(lazy: ScreenRoute['lazy']): ScreenRoute[] {
  return [
    { id: 'terminos', path: 'terminos', Component: Screen },
    { id: 'holograma', path: 'holograma', lazy },
    { id: 'inicio', path: ':apikey', Component: Screen },
  ];
}

beforeEach(() => {
  fake = new FakeWindow('http://flow.test/terminos');
  vi.stubGlobal('window', fake);
});
afterEach(() => vi.unstubAllGlobals());

describe('browser router', () => {
  it('starts on the current URL with the first entry keyed "default"', async () => {
    const router = createBrowserRouter(table(undefined));
    router.start();
    await settle();
    const state = router.getState();
    expect(state).toMatchObject({ ready: true, navigation: 'idle', error: null, route: { id: 'terminos' } });
    expect(state.location).toMatchObject({ pathname: '/terminos', key: 'default', state: null });
    expect(fake.history.state).toEqual({ usr: null, key: 'default', idx: 0 });
  });

  it('keeps the old screen and URL while the next one loads, then writes history with the state', async () => {
    const load = deferred();
    const router = createBrowserRouter(table(() => load.promise));
    router.start();
    await settle();
    const navigation = router.navigate('/holograma?x=1', { state: { passport: true } });
    expect(router.getState()).toMatchObject({ navigation: 'loading', route: { id: 'terminos' } });
    expect(fake.location.pathname).toBe('/terminos');
    load.resolve({ Component: Screen });
    await navigation;
    expect(router.getState()).toMatchObject({ navigation: 'idle', route: { id: 'holograma' } });
    expect(router.getState().location).toMatchObject({ pathname: '/holograma', search: '?x=1', state: { passport: true } });
    expect(fake.location.href).toBe('http://flow.test/holograma?x=1');
    expect(fake.history.state).toMatchObject({ usr: { passport: true }, idx: 1 });
  });

  it('a newer navigation wins over one still loading', async () => {
    const load = deferred();
    const router = createBrowserRouter(table(() => load.promise));
    router.start();
    await settle();
    const slow = router.navigate('/holograma');
    await router.navigate('/demo');
    load.resolve({ Component: Screen });
    await slow;
    expect(router.getState()).toMatchObject({ route: { id: 'inicio' }, params: { apikey: 'demo' } });
    expect(fake.entries.map((entry) => entry.url.pathname)).toEqual(['/terminos', '/demo']);
  });

  it('replace rewrites the current entry; Back restores the previous entry and its state', async () => {
    const router = createBrowserRouter(table(async () => ({ Component: Screen })));
    router.start();
    await settle();
    await router.navigate('/holograma', { state: { passport: false } });
    await router.navigate('/demo', { replace: true, state: { resume: true } });
    expect(fake.entries.map((entry) => entry.url.pathname)).toEqual(['/terminos', '/demo']);
    fake.back();
    await settle();
    expect(router.getState()).toMatchObject({ route: { id: 'terminos' }, location: { key: 'default', state: null } });
  });

  it('a screen that fails to load, or a path no route matches, is an error of the root', async () => {
    const router = createBrowserRouter(table(() => Promise.reject(new Error('chunk failed'))));
    router.start();
    await settle();
    await router.navigate('/holograma');
    expect(router.getState().error).toBeInstanceOf(Error);
    await router.navigate('/a/b');
    expect(router.getState().error).toBeInstanceOf(RouteNotFoundError);
  });
});
