// The baseline: a bare Fastify route returning a small JSON document, no database.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const payload = { status: 200, payload: Array.from({ length: 40 }, (_, i) => ({ idCampo: `CAMPO_${i}`, valor: `valor ${i}` })) };
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/bare', async () => payload);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
