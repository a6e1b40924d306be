import { randomUUID } from 'node:crypto';
import { errorTexts } from '@kyc/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../http/errors.js';
import type { RealtimeConfig } from './config.js';

/** What the registry keeps: anything that can be closed. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * The live connections of this process: at most `maxConnections` (503 beyond, counting those still gathering),
 * each closed `connectionSeconds` after it was created, all closed when the app closes.
 */
export class ConnectionRegistry<S extends Closable> {
  private readonly sessions = new Map<string, { session: S; expiry: NodeJS.Timeout }>();
  private opening = 0;
  private closed = false;

  constructor(
    private readonly config: RealtimeConfig,
    private readonly log: FastifyBaseLogger,
  ) {}

  get size(): number {
    return this.sessions.size + this.opening;
  }

  async create(open: (id: string) => Promise<S>): Promise<{ id: string; session: S }> {
    if (this.closed) throw new HttpError(503, 'The service is shutting down', errorTexts.serviceUnavailable);
    if (this.size >= this.config.maxConnections) {
      this.log.warn({ maxConnections: this.config.maxConnections }, 'real-time connection refused: at capacity');
      throw new HttpError(503, 'Too many real-time connections; try again shortly', errorTexts.serviceUnavailable);
    }
    const id = randomUUID();
    this.opening += 1;
    let session: S;
    try {
      session = await open(id);
    } finally {
      this.opening -= 1;
    }
    if (this.closed) {
      await session.close();
      throw new HttpError(503, 'The service is shutting down', errorTexts.serviceUnavailable);
    }
    const expiry = setTimeout(() => {
      this.log.info({ connectionId: id }, 'real-time connection expired');
      void this.close(id);
    }, this.config.connectionSeconds * 1000);
    expiry.unref();
    this.sessions.set(id, { session, expiry });
    return { id, session };
  }

  get(id: string): S | undefined {
    return this.sessions.get(id)?.session;
  }

  /** False when the id is unknown (never created, already closed or expired). */
  async close(id: string): Promise<boolean> {
    const entry = this.sessions.get(id);
    if (!entry) return false;
    this.sessions.delete(id);
    clearTimeout(entry.expiry);
    await entry.session.close().catch((err: unknown) => this.log.error({ err, connectionId: id }, 'real-time connection did not close cleanly'));
    return true;
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }
}
