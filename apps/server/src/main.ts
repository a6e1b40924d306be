import { buildApp } from './app.js';
import { ConfigError, loadConfig, publicBaseUrl, type Config } from './config.js';
import { recordPublicUrl } from './public-url-file.js';
import { demoApiKey } from './seed.js';

const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || host.startsWith('127.');

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config);
  } catch (error) {
    console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timed out: forcing exit');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    // close() stops accepting connections, answers 503 to new requests, waits for in-flight ones and
    // runs the onClose hooks (which close the database).
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    console.error(`Could not listen on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}`);
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  if (config.processRole === 'worker') {
    console.log(`Job worker running (PROCESS_ROLE=worker); health check at http://${config.host}:${config.port}/healthz`);
    return;
  }
  const entry = config.demoGrantor ? demoApiKey : '{apikey}';
  const baseUrl = publicBaseUrl(config);
  try {
    recordPublicUrl(config, baseUrl);
  } catch (error) {
    app.log.warn({ err: error }, 'could not record the public URL in DATA_DIR (the grantor CLI will print localhost links)');
  }
  console.log(`Onboarding listo en ${baseUrl}/${entry}`);
  if (isLoopback(config.host)) {
    console.log(`Listening on ${config.host} only (this machine). To reach it from other devices set HOST=0.0.0.0 and PUBLIC_URL, behind TLS.`);
  }
}

await main();
