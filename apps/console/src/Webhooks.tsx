import { useCallback, useEffect, useState } from 'react';
import type { ConsoleDelivery, ConsoleWebhookEndpoint } from '@kyc/contracts';
import { api } from './api';
import { Pager, usePagedList, type Page } from './paged';
import { deliveryStatusLabels, eventTypeLabels, formatDate } from './labels';
import { Messages, useFailure } from './feedback';

interface Props {
  onSignedOut(notice?: string): void;
}

const pageSize = 25;

/** The endpoints, the chosen one's delivery pages and the replay of a delivery; a 401 signs the user out. */
function useWebhookLog(onSignedOut: Props['onSignedOut']) {
  const [endpoints, setEndpoints] = useState<ConsoleWebhookEndpoint[] | undefined>();
  const [endpointId, setEndpointId] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState('');

  const { error, fail, clear } = useFailure(onSignedOut, 'No pudimos cargar los webhooks.');

  useEffect(() => {
    api
      .webhooks()
      .then((w) => {
        setEndpoints(w.endpoints);
        setEndpointId((current) => current || w.endpoints[0]?.id || '');
      })
      .catch(fail);
  }, [fail]);

  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<Page<ConsoleDelivery>> => {
      const page = await api.deliveries(endpointId, { cursor, limit: pageSize });
      return { items: page.deliveries, next: page.nextCursor };
    },
    [endpointId],
  );
  const { rows, page, pager, reset, reload } = usePagedList(endpointId ? fetchPage : undefined, fail);

  async function replay(delivery: ConsoleDelivery) {
    setBusy(delivery.id);
    clear();
    setNotice('');
    try {
      await api.replay(delivery.id);
      setNotice(`Reenvío en cola: el evento ${delivery.eventId} se enviará de nuevo con una firma nueva.`);
      reset();
      reload();
    } catch (e) {
      fail(e);
    } finally {
      setBusy('');
    }
  }

  function choose(id: string) {
    setEndpointId(id);
    reset();
  }

  return { endpoints, endpointId, choose, error, notice, busy, rows, page, pager, replay };
}

/** Admins only: the grantor's webhook endpoints and each one's delivery log, with a replay per delivery. */
export function Webhooks({ onSignedOut }: Props) {
  const { endpoints, endpointId, choose, error, notice, busy, rows, page, pager, replay } = useWebhookLog(onSignedOut);
  const endpoint = endpoints?.find((e) => e.id === endpointId);

  return (
    <main className="page">
      <h1>Webhooks</h1>
      <Messages error={error} notice={notice} />
      {endpoints === undefined ? (
        <p className="hint">Cargando destinos…</p>
      ) : endpoints.length === 0 ? (
        <p className="hint">Aún no hay destinos de webhooks. Se dan de alta con la herramienta de línea de comandos (kyc-grantor webhook-add).</p>
      ) : (
        <>
          <div className="field inline">
            <label htmlFor="endpoint">Destino</label>
            <select id="endpoint" value={endpointId} onChange={(e) => choose(e.currentTarget.value)}>
              {endpoints.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.url}
                  {e.active ? '' : ' (inactivo)'}
                </option>
              ))}
            </select>
          </div>
          {endpoint ? <EndpointFacts endpoint={endpoint} /> : null}
          <div aria-live="polite" className="results">
            <DeliveryRows rows={rows} page={page} replayable={busy === '' && endpoint?.active === true} onReplay={replay} />
          </div>
          <Pager pager={pager} />
        </>
      )}
    </main>
  );
}

/** The chosen endpoint: URL, events, state and creation date. */
function EndpointFacts({ endpoint }: { endpoint: ConsoleWebhookEndpoint }) {
  return (
    <dl className="fields endpoint">
      <div>
        <dt>URL</dt>
        <dd>
          <code>{endpoint.url}</code>
        </dd>
      </div>
      <div>
        <dt>Eventos</dt>
        <dd>{endpoint.events.map((e) => eventTypeLabels[e] ?? e).join(', ')}</dd>
      </div>
      <div>
        <dt>Estado</dt>
        <dd>{endpoint.active ? 'Activo' : 'Inactivo'}</dd>
      </div>
      <div>
        <dt>Alta</dt>
        <dd>{formatDate(endpoint.createdAt)}</dd>
      </div>
    </dl>
  );
}

interface DeliveryRowsProps {
  rows: ConsoleDelivery[] | undefined;
  page: number;
  /** No replay is running and the endpoint is active. */
  replayable: boolean;
  onReplay(delivery: ConsoleDelivery): void;
}

/** The page of deliveries as a table (or why there is none yet), each with its replay button. */
function DeliveryRows({ rows, page, replayable, onReplay }: DeliveryRowsProps) {
  if (rows === undefined) return <p className="hint">Cargando envíos…</p>;
  if (rows.length === 0) return <p className="hint">Este destino aún no tiene envíos.</p>;
  return (
    <table className="cases deliveries">
      <caption>
        Página {page}: {rows.length} {rows.length === 1 ? 'envío' : 'envíos'}
      </caption>
      <thead>
        <tr>
          <th scope="col">Fecha</th>
          <th scope="col">Evento</th>
          <th scope="col">Folio</th>
          <th scope="col">Intentos</th>
          <th scope="col">Última respuesta</th>
          <th scope="col">Próximo intento</th>
          <th scope="col">Estado</th>
          <th scope="col">Acción</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr key={d.id}>
            <td data-label="Fecha">{formatDate(d.createdAt)}</td>
            <td data-label="Evento">
              {eventTypeLabels[d.eventType] ?? d.eventType}
              <br />
              <code className="muted event-id">{d.eventId}</code>
              {d.replayOf ? <span className="muted"> · reenvío</span> : null}
            </td>
            <td data-label="Folio">{d.folio ? <code>{d.folio}</code> : <span className="muted">—</span>}</td>
            <td data-label="Intentos">{d.attempts}</td>
            <td data-label="Última respuesta">
              {d.attempts === 0 ? (
                <span className="muted">Sin intentos</span>
              ) : (
                <>
                  {d.lastStatusCode ?? 'Sin respuesta'} · {d.lastDurationMs ?? 0} ms
                </>
              )}
            </td>
            <td data-label="Próximo intento">{d.nextRetryAt ? formatDate(d.nextRetryAt) : <span className="muted">—</span>}</td>
            <td data-label="Estado">
              <span className={`badge delivery-${d.status}`}>{deliveryStatusLabels[d.status]}</span>
            </td>
            <td data-label="Acción">
              <button type="button" className="secondary" disabled={!replayable} onClick={() => onReplay(d)} aria-label={`Reenviar el evento ${d.eventId}`}>
                Reenviar
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
