import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built server (npm run build): the processes under test are the product as it is deployed, not tsx. */
export const serverMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface NodeProcess {
  name: string;
  role: 'api' | 'worker';
  port: number;
  url: string;
  child: ChildProcess;
  /** The last lines it wrote (stdout and stderr), for a failing test's message. */
  output(): string;
  /** kill -9: no shutdown hook runs. */
  kill(): Promise<void>;
  /** SIGTERM and wait (graceful shutdown), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** Starts `node dist/main.js` with PROCESS_ROLE=role on `port` and waits until /readyz answers 200. */
export async function startNode(name: string, role: 'api' | 'worker', env: Record<string, string>, port?: number): Promise<NodeProcess> {
  if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: run npm run build first`);
  const listenOn = port ?? (await freePort());
  const dataDir = mkdtempSync(path.join(tmpdir(), `kyc-scale-${name}-`));
  const child = spawn(process.execPath, [serverMain], {
    env: { PATH: process.env.PATH ?? '', ...env, PROCESS_ROLE: role, PORT: String(listenOn), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${listenOn}`;
  const node: NodeProcess = {
    name,
    role,
    port: listenOn,
    url,
    child,
    output: () => tail,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${tail}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return node;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await node.kill();
      throw new Error(`${name} not ready after 120 s: ${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export interface RoundRobinProxy {
  url: string;
  /** Which node each request went to, by its x-test-call header (requests without it are not recorded). */
  routed: Map<string, string>;
  /** Requests each node received through the proxy. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A small round-robin HTTP proxy in front of the API nodes, as a load balancer would be: each request goes to the
 * next node; a node that refuses the connection (dead) is skipped and the request goes to the next one with what
 * of its body had arrived. A node that dies after it took a request cannot be replayed (its body was streamed):
 * the client gets 502 and retries, as a browser behind a real load balancer does.
 */
export async function startProxy(targets: () => NodeProcess[]): Promise<RoundRobinProxy> {
  let next = 0;
  const routed = new Map<string, string>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let ended = false;
    let upstream: ReturnType<typeof httpRequest> | undefined;
    let tried = 0;
    const fail = (status: number, message: string) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status, message }));
    };
    const attempt = () => {
      const nodes = targets();
      if (tried >= nodes.length) return fail(502, 'no node answered');
      const node = nodes[next++ % nodes.length]!;
      tried += 1;
      let connected = false;
      const call = httpRequest({ host: '127.0.0.1', port: node.port, method: req.method, path: req.url, headers: req.headers });
      upstream = call;
      call.on('socket', (socket) => socket.once('connect', () => (connected = true)));
      call.on('response', (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      call.on('error', (error: NodeJS.ErrnoException) => {
        if (!connected && error.code === 'ECONNREFUSED') return attempt();
        fail(502, `node ${node.name} failed: ${error.code ?? error.message}`);
      });
      call.once('socket', () => {
        const tag = req.headers['x-test-call'];
        if (typeof tag === 'string') routed.set(tag, node.name);
        counts.set(node.name, (counts.get(node.name) ?? 0) + 1);
      });
      for (const chunk of chunks) call.write(chunk);
      if (ended) call.end();
    };
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      upstream?.write(chunk);
    });
    req.on('end', () => {
      ended = true;
      upstream?.end();
    });
    req.on('error', () => upstream?.destroy());
    attempt();
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routed,
    counts,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json(): any;
}

/**
 * One HTTP call. With `pauseAt`, the body is sent up to that byte, then `whilePaused` runs (the test kills the
 * node) before the rest is sent: an upload cut in its middle.
 */
export function call(url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; pauseAt?: number; whilePaused?: () => Promise<void> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
    const headers: Record<string, string> = { ...options.headers, connection: 'close' };
    if (body) headers['content-length'] = String(body.length);
    const req = httpRequest(url, { method: options.method ?? (body ? 'POST' : 'GET'), headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(parts).toString();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    if (!body) return void req.end();
    if (options.pauseAt === undefined) return void req.end(body);
    req.write(body.subarray(0, options.pauseAt), () => {
      Promise.resolve(options.whilePaused?.()).then(
        () => {
          if (!req.destroyed) req.end(body.subarray(options.pauseAt));
        },
        (error: unknown) => {
          req.destroy();
          reject(error);
        },
      );
    });
  });
}

/** A multipart/form-data body of text fields and files. */
export function multipart(parts: Array<{ name: string; value: string } | { name: string; filename: string; contentType: string; data: Buffer }>): { body: Buffer; contentType: string } {
  const boundary = `----kyc-scale-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n\r\n`));
      chunks.push(part.data, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
