import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchRedoLink, partsOf, RedoError, redoTokenOf, sendRedoPart } from './redo-api';

const token = 'aaa.bbb.ccc';

describe('/repetir: the redo link', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('takes a JWT-shaped token from the query and nothing else', () => {
    expect(redoTokenOf(`?token=${token}`)).toBe(token);
    expect(redoTokenOf('?token=not a token')).toBeNull();
    expect(redoTokenOf('')).toBeNull();
    expect(redoTokenOf(`?token=${'a'.repeat(1000)}.${'b'.repeat(1000)}.c`)).toBeNull();
  });

  it('captures both sides of the ID, front first, or the proof alone', () => {
    expect(partsOf.id).toEqual(['front', 'back']);
    expect(partsOf.proof).toEqual(['proof']);
  });

  it('sends the credential in X-Redo-Token, each side to the ID route, and turns a refusal into its Spanish text', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return url === '/v1/redo'
        ? new Response(JSON.stringify({ status: 410, message: 'used', message_client: 'Este enlace ya fue utilizado.' }), { status: 410 })
        : new Response(JSON.stringify({ status: 200, payload: {} }), { status: 200 });
    });
    await sendRedoPart(token, 'back', new Blob(['x'], { type: 'image/jpeg' }));
    expect(calls[0]!.url).toBe('/v1/redo/id');
    expect((calls[0]!.init.headers as Record<string, string>)['x-redo-token']).toBe(token);
    expect((calls[0]!.init.body as FormData).get('side')).toBe('back');
    await sendRedoPart(token, 'proof', new Blob(['x'], { type: 'image/jpeg' }));
    expect(calls[1]!.url).toBe('/v1/redo/proof');
    expect((calls[1]!.init.body as FormData).has('side')).toBe(false);
    const refused = await fetchRedoLink(token).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RedoError);
    expect(refused).toMatchObject({ status: 410, text: 'Este enlace ya fue utilizado.' });
  });

  it('an unreachable service is status 0 without a text', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(fetchRedoLink(token)).rejects.toMatchObject({ status: 0, text: undefined });
  });
});
