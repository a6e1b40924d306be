import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A call the page made to its origin: the path and the JSON body (audits, lifecycle events). */
export interface ReceivedCall {
  url: string;
  body: string;
}

/**
 * Component tests: a local HTTP server as the page's origin, so the calls a screen makes (audits, lifecycle events)
 * reach a real server and can be read back. `open()` moves the test document to `path` on it.
 */
export async function startPageOrigin(): Promise<{ received: ReceivedCall[]; open: (path: string) => void; close: () => Promise<void> }> {
  const received: ReceivedCall[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      received.push({ url: request.url ?? '', body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    received,
    open: (path) => (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${origin}${path}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The JSON bodies of the calls received so far. */
export function bodiesOf(received: readonly ReceivedCall[]): Record<string, unknown>[] {
  return received.map((call) => (call.body ? (JSON.parse(call.body) as Record<string, unknown>) : {}));
}
