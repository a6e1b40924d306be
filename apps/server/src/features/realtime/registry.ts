import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { RefusedError } from '../../domain/refusal.js';
import type { RealtimeConfig } from './config.js';

/** What the registry keeps: anything that can be closed. */
export interface Closable {
  close(): Promise<void>;
}

/** Whom a connection is for: its transaction (one live connection each) and the client address that asked. */
export interface ConnectionOwner {
  uuidTrx: string;
  ip: string;
}

/**
 * The live connections of this process: at most `maxConnections` (503 beyond, counting those still gathering),
 * at most `connectionsPerIp` per client address (429 beyond), one per transaction (a new one replaces the old:
 * the flow opens one per attempt, and a tab that died must not hold the next attempt back), each closed
 * `connectionSeconds` after it was created, all closed when the app closes.
 */
export class ConnectionRegistry<S extends Closable> {
  private readonly sessions = new Map<string, { session: S; expiry: NodeJS.Timeout; owner: ConnectionOwner | undefined }>();
  private readonly openingByIp = new Map<string, number>();
  private opening = 0;
  private closed = false;

  constructor(
    private readonly config: RealtimeConfig,
    private readonly log: FastifyBaseLogger,
  ) {}

  get size(): number {
    return this.sessions.size + this.opening;
  }

  private liveFromIp(ip: string): number {
    let n = this.openingByIp.get(ip) ?? 0;
    for (const entry of this.sessions.values()) if (entry.owner?.ip === ip) n += 1;
    return n;
  }

  /** The live connection of a transaction, if any. */
  idOf(uuidTrx: string): string | undefined {
    for (const [id, entry] of this.sessions) if (entry.owner?.uuidTrx === uuidTrx) return id;
    return undefined;
  }

  async create(open: (id: string) => Promise<S>, owner?: ConnectionOwner): Promise<{ id: string; session: S; replaced?: string }> {
    if (this.closed) throw new RefusedError('service_closing', 'The service is shutting down');
    // The transaction's previous connection goes first: it frees its slot for the new one.
    const replaced = owner ? this.idOf(owner.uuidTrx) : undefined;
    if (replaced) {
      this.log.info({ connectionId: replaced }, 'real-time connection replaced by a new one of its transaction');
      await this.close(replaced);
    }
    if (owner && this.liveFromIp(owner.ip) >= this.config.connectionsPerIp) {
      this.log.warn({ connectionsPerIp: this.config.connectionsPerIp }, 'real-time connection refused: too many from one client address');
      throw new RefusedError('connections_per_ip', `Too many live real-time connections from this client address (at most ${this.config.connectionsPerIp}, REALTIME_CONNECTIONS_PER_IP)`);
    }
    if (this.size >= this.config.maxConnections) {
      this.log.warn({ maxConnections: this.config.maxConnections }, 'real-time connection refused: at capacity');
      throw new RefusedError('server_busy', 'Too many real-time connections; try again shortly');
    }
    const id = randomUUID();
    this.opening += 1;
    if (owner) this.openingByIp.set(owner.ip, (this.openingByIp.get(owner.ip) ?? 0) + 1);
    let session: S;
    try {
      session = await open(id);
    } finally {
      this.opening -= 1;
      if (owner) {
        const left = (this.openingByIp.get(owner.ip) ?? 1) - 1;
        if (left > 0) this.openingByIp.set(owner.ip, left);
        else this.openingByIp.delete(owner.ip);
      }
    }
    if (this.closed) {
      await session.close();
      throw new RefusedError('service_closing', 'The service is shutting down');
    }
    const expiry = setTimeout(() => {
      this.log.info({ connectionId: id }, 'real-time connection expired');
      void this.close(id);
    }, this.config.connectionSeconds * 1000);
    expiry.unref();
    // Two creations of one transaction racing: the later one wins, the earlier is closed.
    const racing = owner ? this.idOf(owner.uuidTrx) : undefined;
    if (racing) await this.close(racing);
    this.sessions.set(id, { session, expiry, owner });
    return { id, session, ...(replaced ? { replaced } : {}) };
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
