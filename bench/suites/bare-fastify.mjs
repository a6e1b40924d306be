// The baseline: a bare Fastify route answering a fixed JSON document (the product's own grantor-parameter
// response, read from BARE_PAYLOAD_FILE), with no database, validation or hooks.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const payload = JSON.parse(readFileSync(process.env.BARE_PAYLOAD_FILE, 'utf8'));
// A stricter reference for a product that keeps its document serialized: the same bytes, encoded once.
const encoded = Buffer.from(JSON.stringify(payload), 'utf8');
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/bare', async () => payload);
app.get('/bare-encoded', async (_request, reply) => reply.type('application/json; charset=utf-8').send(encoded));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
