import { useCallback, useState, type FormEvent } from 'react';
import type { ConsoleCase, ConsoleCaseStatus } from '@kyc/contracts';
import { api } from './api';
import { useFailure } from './feedback';
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

/** The applied filters and the server-side pages of cases they select; a 401 signs the user out. */
function useCaseList({ user, grantorId, onSignedOut }: { user: ScreenProps['user']; grantorId: string; onSignedOut: ScreenProps['onSignedOut'] }) {
  const [filters, setFilters] = useState<Filters>(emptyFilters);

  const { error, fail, clear } = useFailure(onSignedOut, 'No pudimos cargar los expedientes.');

  const fetchPage = useCallback(
    async (cursor: string | undefined): Promise<Page<ConsoleCase>> => {
      clear();
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
    [grantorId, filters, user.role, clear],
  );
  // reload: a review changed a case's status.
  const { rows, page, pager, reset, reload } = usePagedList(grantorId ? fetchPage : undefined, fail);
  return { setFilters, error, rows, page, pager, reset, reload };
}

/**
 * The grantor's cases: search, filters and server-side pages (a stack of cursors for «anterior»). A platform operator
 * sees the cases of the grantor chosen in the top bar's picker (the list is per grantor on the server).
 */
export function Cases({ user, grantorId: chosen, onSignedOut }: ScreenProps) {
  const grantorId = chosen ?? user.grantorId ?? '';
  const [draft, setDraft] = useState<Filters>(emptyFilters);
  const [opened, setOpened] = useState<string | undefined>();
  const { setFilters, error, rows, page, pager, reset, reload } = useCaseList({ user, grantorId, onSignedOut });

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
          <CaseFilters draft={draft} onDraft={setDraft} onApply={apply} onClear={clear} />

          {error ? (
            <p className="error" role="alert">
              {error}
            </p>
          ) : null}
          <div aria-live="polite" className="results">
            <CaseRows rows={rows} page={page} onOpen={setOpened} />
          </div>
          <Pager pager={pager} />
        </main>
      )}
    </>
  );
}

interface CaseFiltersProps {
  draft: Filters;
  onDraft(draft: Filters): void;
  onApply(event: FormEvent): void;
  onClear(): void;
}

/** The search form: text, status and date range. */
function CaseFilters({ draft, onDraft, onApply, onClear }: CaseFiltersProps) {
  return (
    <form className="filters" role="search" onSubmit={onApply}>
      <div className="field grow">
        <label htmlFor="q">Buscar por folio, nombre o CURP</label>
        <input id="q" type="search" value={draft.q} autoComplete="off" spellCheck={false} onChange={(e) => onDraft({ ...draft, q: e.currentTarget.value })} />
      </div>
      <div className="field">
        <label htmlFor="status">Estado</label>
        <select id="status" value={draft.status} onChange={(e) => onDraft({ ...draft, status: e.currentTarget.value as Filters['status'] })}>
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
        <input id="from" type="date" value={draft.from} onChange={(e) => onDraft({ ...draft, from: e.currentTarget.value })} />
      </div>
      <div className="field">
        <label htmlFor="to">Hasta</label>
        <input id="to" type="date" value={draft.to} onChange={(e) => onDraft({ ...draft, to: e.currentTarget.value })} />
      </div>
      <div className="actions">
        <button type="submit" className="primary">
          Buscar
        </button>
        <button type="button" className="secondary" onClick={onClear}>
          Limpiar
        </button>
      </div>
    </form>
  );
}

/** The page of cases as a table (or why there is none yet). */
function CaseRows({ rows, page, onOpen }: { rows: ConsoleCase[] | undefined; page: number; onOpen(uuidTrx: string): void }) {
  if (rows === undefined) return <p className="hint">Cargando expedientes…</p>;
  if (rows.length === 0) return <p className="hint">No hay expedientes que coincidan.</p>;
  return (
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
              <button type="button" className="link" onClick={() => onOpen(c.uuidTrx)} aria-label={`Abrir el expediente ${c.uuidTrx.slice(0, 8)}`}>
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
  );
}
