import type { Deps, ZodApp } from '../../http/deps.js';
import { registerCaseFileRoutes } from './case-file-routes.js';
import { registerCaseRoutes } from './case-routes.js';
import type { ConsoleConfig } from './config.js';
import { createConsoleKit } from './kit.js';
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
const areas: Array<(app: ZodApp, kit: ReturnType<typeof createConsoleKit>) => void> = [
  registerSessionRoutes,
  registerCaseRoutes,
  registerCaseFileRoutes,
  registerWebhookRoutes,
  registerSettingsRoutes,
  registerUserRoutes,
];

export function registerConsoleRoutes(app: ZodApp, deps: Pick<Deps, 'db' | 'cipher' | 'blobs'>, config: ConsoleConfig): void {
  const kit = createConsoleKit(deps, config);
  for (const register of areas) register(app, kit);
}
