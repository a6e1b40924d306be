import { describe, expect, it } from 'vitest';
import { hasPopupQuery, jwtSubject } from './popup';
import { beginJourney } from './start';
import { createStateStorage } from './storage';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwtFor = (sub: unknown) => `${b64url({ alg: 'HS256' })}.${b64url({ sub, oto: 'x' })}.c2ln`;
const launched = '0d9e2f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6';

describe('popup mode (docs/flow.md §6)', () => {
  it('reads the user id the launcher issued from the JWT subject', () => {
    expect(jwtSubject(jwtFor(launched))).toBe(launched);
    expect(jwtSubject(jwtFor(42))).toBeNull();
    expect(jwtSubject('not-a-jwt')).toBeNull();
    expect(jwtSubject('a.%%%.c')).toBeNull();
    expect(jwtSubject(null)).toBeNull();
  });

  it('the journey takes that user id as cliente, unless the URL names one', () => {
    const storage = createStateStorage(null);
    const random = () => 'ffffffff-0000-4000-8000-000000000000';
    const search = `?referer=${encodeURIComponent('http://localhost:9000/t')}&jwt=${jwtFor(launched.toUpperCase())}`;
    expect(beginJourney({ apikey: 'k', search }, storage, random).uuidUser).toBe(launched);
    const cliente = '11111111-2222-4333-8444-555555555555';
    expect(beginJourney({ apikey: 'k', search: `${search}&cliente=${cliente}` }, storage, random).uuidUser).toBe(cliente);
    expect(beginJourney({ apikey: 'k', search: `?jwt=${jwtFor('not-a-uuid')}` }, storage, random).uuidUser).toBe(random());
  });

  it('knows a popup launch by its referer or jwt', () => {
    expect(hasPopupQuery('?referer=http://a&jwt=x')).toBe(true);
    expect(hasPopupQuery('?referer=http://a')).toBe(true);
    expect(hasPopupQuery('?jwt=x')).toBe(true);
    expect(hasPopupQuery('?cliente=x')).toBe(false);
  });
});
