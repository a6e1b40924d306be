import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

/** The message of the ConfigError that `env` must cause (fails the test when the configuration loads). */
export function configErrorMessage(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}
