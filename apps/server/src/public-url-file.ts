/**
 * The server writes the base URL it prints at start into DATA_DIR, so that the command-line tools run in another
 * shell (without the server's PORT or PUBLIC_URL) print links that reach the same server.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { publicBaseUrl, type Config } from './config.js';

const fileName = 'public-url';

export function recordPublicUrl(config: Pick<Config, 'dataDir'>, url: string): void {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(config.dataDir, fileName), `${url}\n`, { mode: 0o600 });
}

/** PUBLIC_URL or PORT when this process was given them; else the URL the last server on DATA_DIR printed. */
export function cliBaseUrl(config: Config, env: NodeJS.ProcessEnv = process.env): string {
  if (env.PUBLIC_URL || env.PORT) return publicBaseUrl(config);
  try {
    const recorded = readFileSync(path.join(config.dataDir, fileName), 'utf8').trim();
    if (URL.canParse(recorded)) return recorded;
  } catch {
    // No server has started on this DATA_DIR yet.
  }
  return publicBaseUrl(config);
}
