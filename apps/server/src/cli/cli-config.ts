import { ConfigError, loadConfig, type Config } from '../config.js';

/** The server's configuration for a command-line tool: a bad value prints its message and yields null. */
export function loadCliConfig(err: (line: string) => void): Config | null {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      err(error.message);
      return null;
    }
    throw error;
  }
}
