import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { ConsoleCase, ConsoleCaseStatus, ConsoleUser } from '@kyc/contracts';
import { api, ApiError } from './api';
import { CaseFile } from './CaseFile';
import { formatDate, roleLabels, statusLabels, statusText } from './labels';
import { Webhooks } from './Webhooks';
import { Funnel } from './Funnel';

interface Props {
  user: ConsoleUser;
  onSignedOut(notice?: string): void;
}

interface Filters {
  q: string;
  status: ConsoleCaseStatus | '';
  from: string;
  to: string;
}

const emptyFilters: Filters = { q: '', status: '', from: '', to: '' };
const pageSize = 25;
const statusOptions = Object.keys(statusLabels) as ConsoleCaseStatus[];

/** The grantor's cases: search, filters and server-side pages (a stack of cursors for «anterior»). */
export function Cases({ user, onSignedOut }: Props) {
  const [grantors, setGrantors] = useState<{ id: string; name: string }[]>([]);
  const [grantorId, setGrantorId] = useState(user.grantorId ?? '');
  const [draft, setDraft] = useState<Filters>(emptyFilters);
  const [filters, setFilters] = useState<Filters>(emptyFilters);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [rows, setRows] = useState<ConsoleCase[] | undefined>();
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [opened, setOpened] = useState<string | undefined>();
  const [refresh, setRefresh] = useState(0);
  const [view, setView] = useState<'cases' | 'funnel' | 'webhooks'>('cases');

  const fail = useCallback(
    (e: unknown) => {
      if (e instanceof ApiError && e.status === 401) return onSignedOut(e.text);
      setError(e instanceof ApiError ? e.text : 'No pudimos cargar los expedientes.');
    },
    [onSignedOut],
  );

  useEffect(() => {
    if (user.role !== 'operator') return;
    api
      .grantors()
      .then((g) => {
        setGrantors(g.grantors);
        setGrantorId((current) => current || g.grantors[0]?.id || '');
      })
      .catch(fail);
  }, [user.role, fail]);

  const cursor = cursors.at(-1);
  useEffect(() => {
    if (!grantorId) return;
    let current = true;
    setRows(undefined);
    setError('');
    api
      .cases({
        ...(user.role === 'operator' ? { grantorId } : {}),
        q: filters.q || undefined,
        status: filters.status || undefined,
        from: filters.from || undefined,
        to: filters.to || undefined,
        cursor,
        limit: pageSize,
      })
      .then((page) => {
        if (!current) return;
        setRows(page.cases);
        setNext(page.nextCursor);
      })
      .catch((e) => current && fail(e));
    return () => {
      current = false;
    };
    // refresh: a review changed a case's status.
  }, [grantorId, filters, cursor, user.role, fail, refresh]);

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters({ ...draft, q: draft.q.trim() });
    setCursors([undefined]);
  }

  function clear() {
    setDraft(emptyFilters);
    setFilters(emptyFilters);
    setCursors([undefined]);
  }

  async function signOut() {
    try {
      await api.signOut();
    } finally {
      onSignedOut('Cerraste sesión.');
    }
  }

  const grantorName = user.grantorName ?? grantors.find((g) => g.id === grantorId)?.name ?? '';
  const page = cursors.length;

  return (
    <>
      <header className="topbar">
        <div className="brand">
          <span className="title">Consola de revisión</span>
          {grantorName ? <span className="grantor">{grantorName}</span> : null}
        </div>
        <nav className="sections" aria-label="Secciones">
          <button type="button" aria-current={view === 'cases' ? 'page' : undefined} onClick={() => setView('cases')}>
            Expedientes
          </button>
          <button type="button" aria-current={view === 'funnel' ? 'page' : undefined} onClick={() => setView('funnel')}>
            Embudo
          </button>
          {user.role === 'admin' ? (
            <button type="button" aria-current={view === 'webhooks' ? 'page' : undefined} onClick={() => setView('webhooks')}>
              Webhooks
            </button>
          ) : null}
        </nav>
        <div className="who">
          <span>
            {user.email} · {roleLabels[user.role]}
          </span>
          <button type="button" className="secondary" onClick={signOut}>
            Cerrar sesión
          </button>
        </div>
      </header>
      {view === 'webhooks' ? (
        <Webhooks onSignedOut={onSignedOut} />
      ) : view === 'funnel' ? (
        <Funnel user={user} grantorId={user.role === 'operator' ? grantorId : undefined} onSignedOut={onSignedOut} />
      ) : opened ? (
        <CaseFile
          uuidTrx={opened}
          grantorId={user.role === 'operator' ? grantorId : undefined}
          onBack={() => setOpened(undefined)}
          onReviewed={() => setRefresh((n) => n + 1)}
          onSignedOut={onSignedOut}
        />
      ) : (
        <main className="page">
          <h1>Expedientes</h1>
          {user.role === 'operator' ? (
            <div className="field inline">
              <label htmlFor="grantor">Otorgante</label>
              <select
                id="grantor"
                value={grantorId}
                onChange={(e) => {
                  setGrantorId(e.currentTarget.value);
                  setCursors([undefined]);
                }}
              >
                {grantors.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
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
          <nav className="pager" aria-label="Paginación">
            <button type="button" className="secondary" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
              Anterior
            </button>
            <button type="button" className="secondary" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
              Siguiente
            </button>
          </nav>
        </main>
      )}
    </>
  );
}
