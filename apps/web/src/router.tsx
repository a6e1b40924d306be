import { createBrowserRouter, type ScreenRoute } from './navigation/router';
import { steps } from './steps/table';
import { dueRoute } from './journey/order';
import { journeyFacts } from './journey/facts';
import { MissingApikey } from './ui/AppShell';

/**
 * Every route of docs/flow.md §2, from the step table (steps/table.ts), plus "/" and unknown paths (no api key). Static
 * paths outrank the dynamic /:apikey (navigation/match.ts ranks by segment), so /pivote, /pdf_token, /terminos...
 * are never read as an api key.
 */
export const routes: ScreenRoute[] = [
  { path: '', id: 'sin_apikey', Component: MissingApikey },
  ...Object.entries(steps).flatMap(([id, row]) => row.paths.map((path): ScreenRoute => ({ path, id, lazy: row.screen }))),
  { path: '*', id: 'no_encontrada', Component: MissingApikey },
];

export function createAppRouter() {
  // A screen reached out of the journey's order goes to the step that is due (journey/order.ts).
  return createBrowserRouter(routes, { redirect: (id) => dueRoute(id, journeyFacts()) });
}
