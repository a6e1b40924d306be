import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3Double {
  endpoint: string;
  /** Stored objects by "bucket/key", exactly as uploaded. */
  objects: Map<string, { body: Buffer; contentType: string | undefined }>;
  /** Method and path of every request received. */
  requests: string[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const errorXml = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

/**
 * The part of the S3 REST API the blob store uses (path-style PUT, GET, HEAD, DELETE of one object), in
 * process. It checks what a real service would refuse: a missing SigV4 signature for the expected access key,
 * and a body that does not match its Content-MD5.
 */
export async function startS3Double(accessKeyId: string): Promise<S3Double> {
  const objects = new Map<string, { body: Buffer; contentType: string | undefined }>();
  const requests: string[] = [];
  const server: Server = createServer(async (request, response) => {
    const objectPath = decodeURIComponent(new URL(request.url ?? '/', 'http://s3').pathname).replace(/^\//, '');
    requests.push(`${request.method} /${objectPath}`);
    const body = await readBody(request);
    const reply = (status: number, xml?: string) => {
      response.writeHead(status, xml ? { 'content-type': 'application/xml' } : {});
      response.end(xml);
    };
    if (!String(request.headers.authorization ?? '').startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`)) {
      return reply(403, errorXml('AccessDenied', 'missing or foreign signature'));
    }
    const stored = objects.get(objectPath);
    switch (request.method) {
      case 'PUT': {
        const md5 = createHash('md5').update(body).digest('base64');
        if (request.headers['content-md5'] !== md5) return reply(400, errorXml('BadDigest', 'Content-MD5 mismatch'));
        objects.set(objectPath, { body, contentType: request.headers['content-type'] });
        response.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
        return response.end();
      }
      case 'GET':
        if (!stored) return reply(404, errorXml('NoSuchKey', 'The specified key does not exist.'));
        response.writeHead(200, { 'content-type': stored.contentType ?? 'application/octet-stream', 'content-length': stored.body.length });
        return response.end(stored.body);
      case 'HEAD':
        response.writeHead(stored ? 200 : 404, stored ? { 'content-length': stored.body.length } : {});
        return response.end();
      case 'DELETE':
        objects.delete(objectPath);
        response.writeHead(204);
        return response.end();
      default:
        return reply(405, errorXml('MethodNotAllowed', 'not supported by the double'));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
