import { useLocation, useSearchParams } from '../navigation/router';

/** The route that sent the user here (spec: "cancel route parameter ruta"), from router state or query. */
export function rutaOf(state: unknown, query: URLSearchParams): string | null {
  const fromState = typeof state === 'object' && state !== null ? (state as { ruta?: unknown }).ruta : undefined;
  return typeof fromState === 'string' ? fromState : query.get('ruta');
}

/** rutaOf for the current location. */
export function useRuta(): string | null {
  const location = useLocation();
  const [query] = useSearchParams();
  return rutaOf(location.state, query);
}
