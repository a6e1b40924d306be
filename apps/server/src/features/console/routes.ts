import type { Deps, ZodApp } from '../../http/deps.js';
import { registerCaseFileRoutes, visibleCaseOf } from './case-file-routes.js';
import { registerCaseMediaRoutes } from './case-media-routes.js';
import { grantorOf, registerCaseRoutes } from './case-routes.js';
import { registerFunnelRoutes } from './funnel-routes.js';
import type { ConsoleRouteHelpers } from './route-helpers.js';
import type { ConsoleConfig } from './config.js';
import { createConsoleKit } from './kit.js';
import { redoLinksOf } from './redo-review.js';
import { registerSessionRoutes } from './session-routes.js';
import { registerSettingsRoutes } from './settings-routes.js';
import { registerUserRoutes } from './user-routes.js';
import { registerWebhookRoutes } from './webhook-routes.js';

export { sessionCookie } from './kit.js';
export { ipLockout, userLockout } from './session-routes.js';

/**
 * The review console's API under /console/api: one file per area, each registering its routes with the shared
 * session kit (kit.ts). A new area adds its file here.
 */
const areas: Array<(app: ZodApp, kit: ReturnType<typeof createConsoleKit>) => void> = [registerSessionRoutes, registerCaseRoutes, registerWebhookRoutes, registerSettingsRoutes, registerUserRoutes];

/** The funnel and the case file's media (video, frames, evidence bundle), which also read the service's config. */
function registerInsightRoutes(app: ZodApp, deps: Pick<Deps, 'db' | 'cipher' | 'blobs' | 'config' | 'caches'>, kit: ReturnType<typeof createConsoleKit>): void {
  const helpers: ConsoleRouteHelpers = {
    requireSession: (request, reply) => kit.requireSession(request, reply),
    requireCsrf: kit.requireCsrf,
    touch: kit.touch,
    noStore: kit.noStore,
    errors: kit.errors,
    grantorOf,
    visibleCase: visibleCaseOf(kit),
    abandonAfterMs: kit.config.abandonAfterMinutes * 60_000,
  };
  registerFunnelRoutes(app, deps, helpers);
  registerCaseMediaRoutes(app, deps, helpers);
}

export function registerConsoleRoutes(app: ZodApp, deps: Pick<Deps, 'db' | 'cipher' | 'blobs' | 'config' | 'caches'>, config: ConsoleConfig): void {
  const kit = createConsoleKit(deps, config);
  for (const register of areas) register(app, kit);
  registerCaseFileRoutes(app, kit, redoLinksOf(deps.config));
  registerInsightRoutes(app, deps, kit);
}
