import { Component as ClassComponent, createContext, useContext, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { matchRoute, type RoutePattern } from './match';

/**
 * The flow's browser router: a flat table of lazy screens under one layout. A navigation loads the next screen's
 * code first and only then changes the URL and the screen (the layout shows progress meanwhile), like a data
 * router; history entries keep the router state across reloads. About 2 KB instead of React Router's ~30 KB
 * gzipped (docs/decisions.md "A router of our own").
 */
export interface ScreenRoute extends RoutePattern {
  /** The screen, or its module loaded on demand. */
  Component?: ComponentType;
  lazy?: () => Promise<{ Component: ComponentType }>;
}

export interface RouterLocation {
  pathname: string;
  search: string;
  hash: string;
  /** The state given to navigate(), kept in the history entry. */
  state: unknown;
  /** 'default' for the first entry of a session, a fresh id per navigation. */
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type Navigate = (to: string, options?: NavigateOptions) => Promise<void>;

interface RouterState {
  location: RouterLocation;
  route: ScreenRoute | null;
  params: Record<string, string>;
  Screen: ComponentType | null;
  /** 'loading' while the next screen's code loads. */
  navigation: 'idle' | 'loading';
  /** A screen whose code failed to load, or a path no route matches. */
  error: unknown;
  /** False until the first screen is ready. */
  ready: boolean;
}

/** What a path no route matches raises (the layout shows the bad-URL notice). */
export class RouteNotFoundError extends Error {
  constructor(readonly pathname: string) {
    super(`no route for ${pathname}`);
  }
}

/** The history entry's state, in the shape React Router wrote, so a reload after an update keeps the step's state. */
interface HistoryEntry {
  usr: unknown;
  key: string;
  idx: number;
}

function historyEntry(): Partial<HistoryEntry> {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null ? (state as Partial<HistoryEntry>) : {};
}

function currentLocation(): RouterLocation {
  const entry = historyEntry();
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state: entry.usr ?? null, key: entry.key ?? 'default' };
}

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

async function screenOf(route: ScreenRoute): Promise<ComponentType> {
  if (route.Component) return route.Component;
  if (!route.lazy) throw new Error(`route ${route.id} has no screen`);
  const loaded = await route.lazy();
  route.Component = loaded.Component;
  return loaded.Component;
}

export interface BrowserRouter {
  getState(): RouterState;
  subscribe(listener: () => void): () => void;
  navigate: Navigate;
  start(): void;
}

/** Creates the router over window.history; start() resolves the first screen and follows Back/Forward. */
export interface RouterOptions {
  /** Where a route may not show yet goes instead (a replace navigation), or null when it may show. */
  redirect?: (routeId: string) => string | null;
}

export function createBrowserRouter(routes: readonly ScreenRoute[], options: RouterOptions = {}): BrowserRouter {
  let state: RouterState = {
    location: currentLocation(),
    route: null,
    params: {},
    Screen: null,
    navigation: 'idle',
    error: null,
    ready: false,
  };
  const listeners = new Set<() => void>();
  let pending = 0;
  let started = false;

  const set = (next: Partial<RouterState>): void => {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  };

  /** Loads the screen of location, then commits it (writing history first); a newer navigation wins. */
  async function go(location: RouterLocation, write: (() => void) | null): Promise<void> {
    const found = matchRoute(routes, location.pathname);
    const elsewhere = found ? options.redirect?.(found.route.id) : null;
    if (elsewhere && elsewhere !== location.pathname) return navigate(elsewhere, { replace: true });
    const id = ++pending;
    if (state.ready && found && !found.route.Component) set({ navigation: 'loading' });
    let Screen: ComponentType | null = null;
    let error: unknown = null;
    if (!found) error = new RouteNotFoundError(location.pathname);
    else {
      try {
        Screen = await screenOf(found.route);
      } catch (cause) {
        error = cause;
      }
    }
    if (id !== pending) return;
    write?.();
    set({ location, route: found?.route ?? null, params: found?.params ?? {}, Screen, error, navigation: 'idle', ready: true });
  }

  const navigate: Navigate = (to, options = {}) => {
    const url = new URL(to, window.location.href);
    const key = newKey();
    const location: RouterLocation = {
      pathname: url.pathname,
      search: url.search,
      hash: url.hash,
      state: options.state ?? null,
      key,
    };
    return go(location, () => {
      const idx = (historyEntry().idx ?? 0) + (options.replace ? 0 : 1);
      const entry: HistoryEntry = { usr: location.state, key, idx };
      const href = url.pathname + url.search + url.hash;
      if (options.replace) window.history.replaceState(entry, '', href);
      else window.history.pushState(entry, '', href);
    });
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate,
    start() {
      if (started) return;
      started = true;
      if (historyEntry().idx === undefined) {
        window.history.replaceState({ usr: null, key: 'default', idx: 0 } satisfies HistoryEntry, '');
      }
      window.addEventListener('popstate', () => void go(currentLocation(), null));
      void go(currentLocation(), null);
    },
  };
}

interface RouteContextValue {
  state: RouterState;
  navigate: Navigate;
}

const RouteContext = createContext<RouteContextValue | null>(null);

function useRouteContext(): RouteContextValue {
  const value = useContext(RouteContext);
  if (!value) throw new Error('router hooks need <RouterProvider>');
  return value;
}

interface BoundaryProps {
  /** Changing resetKey (the location key) clears a caught error. */
  resetKey: string;
  fallback: (error: unknown) => ReactNode;
  children: ReactNode;
}

/** Catches a screen that throws while rendering, as the root route's error boundary did. */
class ErrorBoundary extends ClassComponent<BoundaryProps, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}

export interface RouterProviderProps {
  router: BrowserRouter;
  /** The layout around every screen; renders <Outlet />. */
  Layout: ComponentType;
  /** First paint while the first screen's code loads. */
  Fallback: ComponentType;
  /** Shown when a screen fails to load or to render (reads useRouteError()). */
  ErrorScreen: ComponentType;
}

export function RouterProvider({ router, Layout, Fallback, ErrorScreen }: RouterProviderProps) {
  const [state, setState] = useState(router.getState);
  useEffect(() => {
    const unsubscribe = router.subscribe(() => setState(router.getState()));
    setState(router.getState());
    router.start();
    return unsubscribe;
  }, [router]);
  const value = useMemo(() => ({ state, navigate: router.navigate }), [state, router]);
  const errorScreen = (error: unknown) => (
    <RouteContext.Provider value={{ ...value, state: { ...value.state, error } }}>
      <ErrorScreen />
    </RouteContext.Provider>
  );
  if (!state.ready) return <Fallback />;
  if (state.error) return errorScreen(state.error);
  return (
    <ErrorBoundary resetKey={state.location.key} fallback={errorScreen}>
      <RouteContext.Provider value={value}>
        <Layout />
      </RouteContext.Provider>
    </ErrorBoundary>
  );
}

/** The current screen. */
export function Outlet() {
  const { Screen } = useRouteContext().state;
  return Screen ? <Screen /> : null;
}

export function useLocation(): RouterLocation {
  return useRouteContext().state.location;
}

export function useParams(): Readonly<Record<string, string | undefined>> {
  return useRouteContext().state.params;
}

export function useSearchParams(): readonly [URLSearchParams] {
  const { search } = useLocation();
  return [useMemo(() => new URLSearchParams(search), [search])] as const;
}

export function useNavigate(): Navigate {
  return useRouteContext().navigate;
}

export function useNavigation(): { state: 'idle' | 'loading' } {
  return { state: useRouteContext().state.navigation };
}

export function useRouteError(): unknown {
  return useRouteContext().state.error;
}
