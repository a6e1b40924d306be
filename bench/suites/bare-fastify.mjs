// The baseline: a bare Fastify route answering a fixed JSON document (the product's own grantor-parameter
// response, read from BARE_PAYLOAD_FILE), with no database, validation or hooks.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const payload = JSON.parse(readFileSync(process.env.BARE_PAYLOAD_FILE, 'utf8'));
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/bare', async () => payload);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
