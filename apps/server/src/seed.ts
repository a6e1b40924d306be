import { findGrantorById, type GrantorStore, insertGrantor, invalidateGrantorCaches, setGrantorActive, writeParams } from './store/grantors.js';
import { demoSecretKey, demoSecretKeyId } from './secret-keys/keys.js';
import { findSecretKeyById, insertSecretKey, restoreSecretKey, revokeSecretKey } from './secret-keys/store.js';

export const demoGrantorId = '00000000-0000-4000-8000-000000000001';
export const demoApiKey = 'demo';
export const demoGrantorName = 'Financiera Demo';

const font = 'system-ui,-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif';
const demoLogoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="64" viewBox="0 0 240 64" role="img" aria-label="Financiera Demo">' +
  '<rect x="2" y="2" width="60" height="60" rx="14" fill="#0B4F8A"/>' +
  `<text x="32" y="40" text-anchor="middle" font-family="${font}" font-size="26" font-weight="700" fill="#FFFFFF">FD</text>` +
  '<rect x="20" y="47" width="24" height="4" rx="2" fill="#F2A900"/>' +
  `<text x="76" y="30" font-family="${font}" font-size="20" font-weight="700" fill="#1B1B1F">Financiera</text>` +
  `<text x="76" y="52" font-family="${font}" font-size="17" fill="#0B4F8A">Demo</text>` +
  '</svg>';

export const demoParams: Readonly<Record<string, string>> = {
  NOMBRE_CORTO: 'Demo',
  RAZON_SOCIAL: 'Financiera Demo S.A. de C.V.',
  CIUDAD_LEGAL_DEL_OTORGANTE: 'Ciudad de México',
  EMAIL_CONTACTO_PRINCIPAL: 'contacto@demo.example',
  TEL_CONTACTO_PRINCIPAL: '55 1234 5678',
  COLOR_PRIMARIO: '#0B4F8A',
  COLOR_SECUNDARIO: '#E8F0F8',
  COLOR_ACENTUACION: '#F2A900',
  COLOR_DE_TEXTO: '#1B1B1F',
  LOGO_OTORGANTE: `data:image/svg+xml;base64,${Buffer.from(demoLogoSvg, 'utf8').toString('base64')}`,
};

export type SeedOutcome = 'created' | 'kept' | 'deactivated' | 'absent';

/**
 * DEMO_GRANTOR=true: the demo grantor exists and is active (api key `demo` on creation) with its documented
 * secret server key `demo-secret`; its parameters are added when missing and never overwrite what an operator
 * changed. DEMO_GRANTOR=false: it is deactivated and its demo secret revoked, so neither well-known key works.
 */
export async function seedDemoGrantor(store: GrantorStore, enabled: boolean): Promise<SeedOutcome> {
  const { db, caches } = store;
  const existing = await findGrantorById(db, demoGrantorId);
  if (!enabled) {
    if (!existing) return 'absent';
    if (existing.active) await setGrantorActive(store, demoGrantorId, false);
    await revokeSecretKey(db, demoSecretKeyId);
    return 'deactivated';
  }
  await db.transaction().execute(async (tx) => {
    // ifAbsent: several nodes may seed the same database at once.
    const inTx = { db: tx, caches };
    if (!existing) await insertGrantor(inTx, { id: demoGrantorId, name: demoGrantorName, apiKey: demoApiKey, launcherAnyOrigin: true }, { ifAbsent: true });
    else if (!existing.active) await setGrantorActive(inTx, demoGrantorId, true);
    await writeParams(inTx, demoGrantorId, demoParams, { keepExisting: true });
    await insertSecretKey(tx, { id: demoSecretKeyId, grantorId: demoGrantorId, key: demoSecretKey, label: 'demo (DEMO_GRANTOR)' }, { ifAbsent: true });
    if ((await findSecretKeyById(tx, demoSecretKeyId))?.revokedAt) await restoreSecretKey(tx, demoSecretKeyId);
  });
  // Emptied again once committed: a read between the writes above and the commit may have cached the old rows.
  invalidateGrantorCaches(caches);
  return existing ? 'kept' : 'created';
}
