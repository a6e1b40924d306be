import { useCallback, useState, type FormEvent } from 'react';
import type { ConsoleCase, ConsoleCaseStatus } from '@kyc/contracts';
import { api, ApiError } from './api';
import { CaseFile } from './CaseFile';
import { Pager, usePagedList, type Page } from './paged';
import { formatDate, statusLabels, statusText } from './labels';
import type { ScreenProps } from './screens';

interface Filters {
  q: string;
  status: ConsoleCaseStatus | '';
  from: string;
  to: string;
}

const emptyFilters: Filters = { q: '', status: '', from: '', to: '' };
const pageSize = 25;
const statusOptions = Object.keys(statusLabels) as ConsoleCaseStatus[];

/**
 * The grantor's cases: search, filters and server-side pages (a stack of cursors for «anterior»). A platform operator
 * sees the cases of the grantor chosen in the top bar's picker (the list is per grantor on the server).
 */
export function Cases({ user, grantorId: chosen, onSignedOut }: ScreenProps) {
  const grantorId = chosen ?? user.grantorId ?? '';
  const [draft, setDraft] = useState<Filters>(emptyFilters);
  const [filters, setFilters] = useState<Filters>(emptyFilters);
  const [error, setError] = useState('');
  const [opened, setOpened] = useState<string | undefined>();

  const fail = useCallback(
    (e: unknown) => {
      if (e instanceof ApiError && e.status === 401) return onSignedOut(e.text);
      setError(e instanceof ApiError ? e.text : 'No pudimos cargar los expedientes.');
    },
    [onSignedOut],
  );

  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<Page<ConsoleCase>> => {
      setError('');
      const page = await api.cases({
        ...(user.role === 'operator' ? { grantorId } : {}),
        q: filters.q || undefined,
        status: filters.status || undefined,
        from: filters.from || undefined,
        to: filters.to || undefined,
        cursor,
        limit: pageSize,
      });
      return { items: page.cases, next: page.nextCursor };
    },
    [grantorId, filters, user.role],
  );
  // reload: a review changed a case's status.
  const { rows, page, pager, reset, reload } = usePagedList(grantorId ? fetchPage : undefined, fail);

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters({ ...draft, q: draft.q.trim() });
    reset();
  }

  function clear() {
    setDraft(emptyFilters);
    setFilters(emptyFilters);
    reset();
  }

  return (
    <>
      {opened ? (
        <CaseFile uuidTrx={opened} grantorId={user.role === 'operator' ? grantorId : undefined} onBack={() => setOpened(undefined)} onReviewed={reload} onSignedOut={onSignedOut} />
      ) : (
        <main className="page">
          <h1>Expedientes</h1>
          <form className="filters" role="search" onSubmit={apply}>
            <div className="field grow">
              <label htmlFor="q">Buscar por folio, nombre o CURP</label>
              <input id="q" type="search" value={draft.q} autoComplete="off" spellCheck={false} onChange={(e) => setDraft({ ...draft, q: e.currentTarget.value })} />
            </div>
            <div className="field">
              <label htmlFor="status">Estado</label>
              <select id="status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value as Filters['status'] })}>
                <option value="">Todos</option>
                {statusOptions.map((s) => (
                  <option key={s} value={s}>
                    {statusLabels[s]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="from">Desde</label>
              <input id="from" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })} />
            </div>
            <div className="field">
              <label htmlFor="to">Hasta</label>
              <input id="to" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
            </div>
            <div className="actions">
              <button type="submit" className="primary">
                Buscar
              </button>
              <button type="button" className="secondary" onClick={clear}>
                Limpiar
              </button>
            </div>
          </form>

          {error ? (
            <p className="error" role="alert">
              {error}
            </p>
          ) : null}
          <div aria-live="polite" className="results">
            {rows === undefined ? (
              <p className="hint">Cargando expedientes…</p>
            ) : rows.length === 0 ? (
              <p className="hint">No hay expedientes que coincidan.</p>
            ) : (
              <table className="cases">
                <caption>
                  Página {page}: {rows.length} {rows.length === 1 ? 'expediente' : 'expedientes'}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Folio</th>
                    <th scope="col">Fecha de creación</th>
                    <th scope="col">Nombre</th>
                    <th scope="col">Estado</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((c) => (
                    <tr key={c.uuidTrx}>
                      <td data-label="Folio">
                        <button type="button" className="link" onClick={() => setOpened(c.uuidTrx)} aria-label={`Abrir el expediente ${c.uuidTrx.slice(0, 8)}`}>
                          <code title={c.uuidTrx}>{c.uuidTrx.slice(0, 8)}</code>
                        </button>
                      </td>
                      <td data-label="Fecha de creación">{formatDate(c.createdAt)}</td>
                      <td data-label="Nombre">{c.blocked ? <span className="muted">Datos bloqueados</span> : (c.holderName ?? <span className="muted">Sin nombre todavía</span>)}</td>
                      <td data-label="Estado">
                        <span className={`badge badge-${c.status.toLowerCase()}`}>{statusText(c)}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
          <Pager pager={pager} />
        </main>
      )}
    </>
  );
}
