import { useEffect, useState, type FormEvent } from 'react';
import type { ConsoleWebhookEndpoint, ConsoleWebhookEndpointCreated } from '@kyc/contracts';
import { consoleWebhookEventTypes } from '@kyc/contracts/console-routes';
import { api } from '../api';
import { eventTypeLabels, formatDate } from '../labels';
import type { ScreenProps } from '../screens';
import { count, FieldError, invalidProps, Messages, OnceSecret, useFailure } from './common';

/** The endpoints and the add and deactivate calls, with the form's URL and events. */
function useEndpoints(onSignedOut: ScreenProps['onSignedOut']) {
  const [endpoints, setEndpoints] = useState<ConsoleWebhookEndpoint[] | undefined>();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([...consoleWebhookEventTypes]);
  const [shown, setShown] = useState<ConsoleWebhookEndpointCreated | undefined>();
  const [confirming, setConfirming] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const { error, fields, fail, clear, forget } = useFailure(onSignedOut);

  useEffect(() => {
    api
      .webhooks()
      .then((w) => setEndpoints(w.endpoints))
      .catch(fail);
  }, [fail]);

  async function add(event: FormEvent) {
    event.preventDefault();
    clear();
    setNotice('');
    setBusy(true);
    try {
      const created = await api.addEndpoint({ url: url.trim(), events: events as ConsoleWebhookEndpoint['events'] });
      setShown(created);
      setUrl('');
      setEndpoints((list) => [...(list ?? []), created.endpoint]);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }

  async function remove(endpoint: ConsoleWebhookEndpoint) {
    clear();
    setBusy(true);
    try {
      setEndpoints((await api.removeEndpoint(endpoint.id)).endpoints);
      setNotice(`Desactivamos ${endpoint.url}: ya no recibe envíos.`);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
      setConfirming('');
    }
  }

  const toggle = (type: string, on: boolean) => setEvents((list) => (on ? [...list, type] : list.filter((t) => t !== type)));
  const editUrl = (value: string) => {
    forget('url');
    setUrl(value);
  };

  return { endpoints, url, editUrl, events, toggle, shown, setShown, confirming, setConfirming, busy, notice, error, fields, add, remove };
}

/** Webhook endpoints: add one (URL checked, events chosen, signing secret shown once) or deactivate it. */
export function Endpoints({ onSignedOut }: ScreenProps) {
  const { endpoints, url, editUrl, events, toggle, shown, setShown, confirming, setConfirming, busy, notice, error, fields, add, remove } = useEndpoints(onSignedOut);

  return (
    <section aria-labelledby="endpoints-title">
      <h2 id="endpoints-title">Destinos de webhooks</h2>
      <Messages error={error} notice={notice} />
      {shown ? <OnceSecret title={`Secreto de firma de ${shown.endpoint.url}`} items={[{ label: 'Secreto de firma', value: shown.secret }]} onDone={() => setShown(undefined)} /> : null}
      <form className="stacked-form" onSubmit={add} noValidate>
        <div className="field">
          <label htmlFor="endpoint-url">URL del destino (https://)</label>
          <input id="endpoint-url" type="url" inputMode="url" spellCheck={false} value={url} onChange={(e) => editUrl(e.currentTarget.value)} {...invalidProps('endpoint-url', fields.url)} />
          <FieldError id="endpoint-url" text={fields.url} />
        </div>
        <fieldset className="checks" {...invalidProps('endpoint-events', fields.events)}>
          <legend>Eventos</legend>
          {consoleWebhookEventTypes.map((type) => (
            <label key={type} className="check">
              <input type="checkbox" checked={events.includes(type)} onChange={(e) => toggle(type, e.currentTarget.checked)} />
              {eventTypeLabels[type]} <code className="muted">{type}</code>
            </label>
          ))}
          <FieldError id="endpoint-events" text={fields.events} />
        </fieldset>
        <button type="submit" className="primary" disabled={busy}>
          Agregar destino
        </button>
      </form>
      {endpoints === undefined ? (
        <p className="hint">Cargando destinos…</p>
      ) : endpoints.length === 0 ? (
        <p className="hint">Aún no hay destinos de webhooks.</p>
      ) : (
        <EndpointTable endpoints={endpoints} confirming={confirming} busy={busy} onConfirm={setConfirming} onRemove={remove} />
      )}
    </section>
  );
}

interface EndpointTableProps {
  endpoints: ConsoleWebhookEndpoint[];
  /** The endpoint whose deactivation awaits a second click. */
  confirming: string;
  busy: boolean;
  onConfirm(id: string): void;
  onRemove(endpoint: ConsoleWebhookEndpoint): void;
}

/** The endpoints, each with its deactivate button (asked twice). */
function EndpointTable({ endpoints, confirming, busy, onConfirm, onRemove }: EndpointTableProps) {
  return (
    <table className="cases">
      <caption>{count(endpoints.length, 'destino', 'destinos')}</caption>
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Eventos</th>
          <th scope="col">Alta</th>
          <th scope="col">Estado</th>
          <th scope="col">Acción</th>
        </tr>
      </thead>
      <tbody>
        {endpoints.map((e) => (
          <tr key={e.id}>
            <td data-label="URL">
              <code className="wrap">{e.url}</code>
            </td>
            <td data-label="Eventos">{e.events.map((t) => eventTypeLabels[t] ?? t).join(', ')}</td>
            <td data-label="Alta">{formatDate(e.createdAt)}</td>
            <td data-label="Estado">{e.active ? <span className="badge badge-green">Activo</span> : <span className="badge badge-abandoned">Inactivo</span>}</td>
            <td data-label="Acción">
              {!e.active ? null : confirming === e.id ? (
                <button type="button" className="danger" disabled={busy} onClick={() => onRemove(e)}>
                  Confirmar desactivación
                </button>
              ) : (
                <button type="button" className="secondary" disabled={busy} onClick={() => onConfirm(e.id)} aria-label={`Desactivar ${e.url}`}>
                  Desactivar
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
