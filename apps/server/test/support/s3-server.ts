import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's built-in account: it checks every request's SigV4 signature against this pair. */
const accessKeyId = 'S3RVER';
const secretAccessKey = 'S3RVER';

export interface S3Server {
  bucket: string;
  endpoint: string;
  /** Method and URL (path and query) of every request the server received, in order. */
  requests: string[];
  /** S3_* settings that point the product's blob store at this server. */
  env: Record<string, string>;
  /** A client of its own, to look at the bucket as the storage provider sees it. */
  raw: {
    get(key: string): Promise<Buffer>;
    put(key: string, body: Buffer): Promise<void>;
    head(key: string): Promise<{ etag: string; size: number } | undefined>;
    keys(): Promise<string[]>;
  };
  /** Stops answering (connections cut, port closed); objects stay on disk. */
  stop(): Promise<void>;
  /** Serves again on the same port and directory. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) on a free local port and a temporary directory, with one bucket. Always
 * `close()` it (afterAll).
 */
export async function startS3Server(bucket = 'kyc-evidence'): Promise<S3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'kyc-s3rver-'));
  let port = 0;
  let server: S3rver | undefined;
  const requests: string[] = [];

  const start = async () => {
    if (server) return;
    const next = new S3rver({ address: '127.0.0.1', port, directory, silent: true, vhostBuckets: false, configureBuckets: [{ name: bucket }] });
    const address = await next.run();
    next.httpServer?.on('request', (request: IncomingMessage) => requests.push(`${request.method} ${request.url}`));
    port = address.port;
    server = next;
  };
  const stop = async () => {
    const running = server;
    if (!running) return;
    server = undefined;
    // The SDK keeps connections alive; cut them so the port really stops answering.
    running.httpServer?.closeAllConnections();
    await running.close();
  };

  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const isNotFound = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

  return {
    bucket,
    endpoint,
    requests,
    env: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey },
    raw: {
      async get(key) {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await object.Body!.transformToByteArray());
      },
      async put(key, body) {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
      },
      async head(key) {
        try {
          const object = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
          return { etag: object.ETag ?? '', size: object.ContentLength ?? 0 };
        } catch (error) {
          if (isNotFound(error)) return undefined;
          throw error;
        }
      },
      async keys() {
        const keys: string[] = [];
        let token: string | undefined;
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
          keys.push(...(page.Contents ?? []).map((o) => o.Key!));
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
        return keys.sort();
      },
    },
    stop,
    start,
    async close() {
      client.destroy();
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
