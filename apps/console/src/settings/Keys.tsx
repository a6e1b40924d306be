import { useEffect, useState, type FormEvent } from 'react';
import type { ConsoleSecretKey, ConsoleSecretKeyCreated } from '@kyc/contracts';
import { api } from '../api';
import { formatDate } from '../labels';
import type { ScreenProps } from '../screens';
import { count, Messages, OnceSecret, useAction, useFailure } from './common';

/** Secret server keys: listed by their first characters; created or rotated with the key shown once; revoked. */
export function Keys({ onSignedOut }: ScreenProps) {
  const [keys, setKeys] = useState<ConsoleSecretKey[] | undefined>();
  const [label, setLabel] = useState('');
  const [shown, setShown] = useState<ConsoleSecretKeyCreated | undefined>();
  const [confirming, setConfirming] = useState('');
  const { error, fail, clear } = useFailure(onSignedOut);
  const action = useAction(clear, fail);
  const { busy, notice } = action;

  const reload = () =>
    api
      .keys()
      .then((k) => setKeys(k.keys))
      .catch(fail);
  useEffect(() => {
    reload();
    // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once
  }, []);

  async function run(call: () => Promise<unknown>, done: string) {
    if (await action.run(call, done)) await reload();
    setConfirming('');
  }

  function create(event: FormEvent) {
    event.preventDefault();
    run(async () => {
      setShown(await api.createKey(label.trim()));
      setLabel('');
    }, 'Clave creada.');
  }

  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">Claves secretas del servidor</h2>
      <p className="hint">Tu servidor las envía como «Authorization: Bearer …» para leer resultados, eventos y documentos. Se guardan cifradas con hash: solo se muestran al crearlas.</p>
      <Messages error={error} notice={notice} />
      {shown ? <OnceSecret title="Clave secreta nueva" items={[{ label: 'Clave', value: shown.secret }]} onDone={() => setShown(undefined)} /> : null}
      <form className="inline-form" onSubmit={create}>
        <div className="field grow">
          <label htmlFor="key-label">Etiqueta (para reconocerla)</label>
          <input id="key-label" maxLength={100} value={label} onChange={(e) => setLabel(e.currentTarget.value)} />
        </div>
        <button type="submit" className="primary" disabled={busy}>
          Crear clave
        </button>
      </form>
      {keys === undefined ? (
        <p className="hint">Cargando claves…</p>
      ) : keys.length === 0 ? (
        <p className="hint">Aún no hay claves secretas.</p>
      ) : (
        <table className="cases">
          <caption>{count(keys.length, 'clave', 'claves')}</caption>
          <thead>
            <tr>
              <th scope="col">Clave</th>
              <th scope="col">Etiqueta</th>
              <th scope="col">Creada</th>
              <th scope="col">Último uso</th>
              <th scope="col">Estado</th>
              <th scope="col">Acciones</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td data-label="Clave">
                  <code>{k.hint}…</code>
                </td>
                <td data-label="Etiqueta">{k.label || <span className="muted">—</span>}</td>
                <td data-label="Creada">{formatDate(k.createdAt)}</td>
                <td data-label="Último uso">{k.lastUsedAt ? formatDate(k.lastUsedAt) : <span className="muted">Nunca</span>}</td>
                <td data-label="Estado">{k.revokedAt ? <span className="badge badge-red">Revocada {formatDate(k.revokedAt)}</span> : <span className="badge badge-green">Activa</span>}</td>
                <td data-label="Acciones" className="row-actions">
                  {k.revokedAt ? null : (
                    <>
                      <button
                        type="button"
                        className="secondary"
                        disabled={busy}
                        onClick={() => run(async () => setShown(await api.rotateKey(k.id)), `Clave ${k.hint}… revocada y reemplazada.`)}
                        aria-label={`Rotar la clave ${k.hint}`}
                      >
                        Rotar
                      </button>
                      {confirming === k.id ? (
                        <button type="button" className="danger" disabled={busy} onClick={() => run(() => api.revokeKey(k.id), `Clave ${k.hint}… revocada.`)}>
                          Confirmar revocación
                        </button>
                      ) : (
                        <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(k.id)} aria-label={`Revocar la clave ${k.hint}`}>
                          Revocar
                        </button>
                      )}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
