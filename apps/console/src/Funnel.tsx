import { useEffect, useState, type FormEvent } from 'react';
import type { ConsoleFunnel } from '@kyc/contracts';
import { api } from './api';
import { useFailure } from './feedback';
import type { ScreenProps } from './screens';

const day = (date: Date) => date.toISOString().slice(0, 10);
const percent = new Intl.NumberFormat('es-MX', { style: 'percent', maximumFractionDigits: 1 });
const count = new Intl.NumberFormat('es-MX');

/** A median time as people read it: «45 s», «3 min 20 s», «2 h 5 min». */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${Math.round(hours / 24)} días`;
}

/** The funnel of the chosen range (an operator waits for a grantor); a 401 signs the user out. */
function useFunnel({ user, grantorId, onSignedOut }: ScreenProps, range: { from: string; to: string }) {
  const [funnel, setFunnel] = useState<ConsoleFunnel | undefined>();

  const { error, fail, clear } = useFailure(onSignedOut, 'No pudimos calcular el embudo.');

  useEffect(() => {
    if (user.role === 'operator' && !grantorId) return;
    let current = true;
    setFunnel(undefined);
    clear();
    api
      .funnel({ ...range, ...(user.role === 'operator' ? { grantorId } : {}) })
      .then((f) => current && setFunnel(f))
      .catch((e) => current && fail(e));
    return () => {
      current = false;
    };
  }, [range, grantorId, user.role, fail, clear]);

  return { funnel, error };
}

/**
 * The funnel of the grantor's transactions over a date range: one bar per step (plain SVG, no chart library: the
 * console's CSP allows no inline style) and the same figures in a table, which is what assistive technology reads.
 */
export function Funnel(props: ScreenProps) {
  const today = new Date();
  const [draft, setDraft] = useState({ from: day(new Date(today.getTime() - 29 * 86_400_000)), to: day(today) });
  const [range, setRange] = useState(draft);
  const { funnel, error } = useFunnel(props, range);

  function apply(event: FormEvent) {
    event.preventDefault();
    setRange(draft);
  }

  const total = funnel?.transactions ?? 0;
  return (
    <main className="page funnel">
      <h1>Embudo de conversión</h1>
      <form className="filters" onSubmit={apply} aria-label="Periodo del embudo">
        <div className="field">
          <label htmlFor="funnel-from">Desde</label>
          <input id="funnel-from" type="date" required value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })} />
        </div>
        <div className="field">
          <label htmlFor="funnel-to">Hasta</label>
          <input id="funnel-to" type="date" required value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Ver embudo
          </button>
        </div>
      </form>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <div aria-live="polite">
        {!funnel ? (
          error ? null : (
            <p className="hint">Calculando el embudo…</p>
          )
        ) : total === 0 ? (
          <p className="hint">Nadie abrió el enlace en este periodo.</p>
        ) : (
          <>
            <FunnelSummary funnel={funnel} total={total} />
            <FunnelChart steps={funnel.steps} total={total} />
            <FunnelTable steps={funnel.steps} total={total} />
            <p className="hint">
              Se cuentan los procesos cuyo enlace se abrió entre las fechas elegidas (UTC). La mediana de tiempo va del paso anterior alcanzado a este. Un proceso abandonado es el que la persona
              canceló o que lleva más del tiempo configurado sin actividad.
            </p>
          </>
        )}
      </div>
    </main>
  );
}

/** Started, finished, abandoned and in progress, and a notice while events are still being read. */
function FunnelSummary({ funnel, total }: { funnel: ConsoleFunnel; total: number }) {
  return (
    <>
      <p className="summary funnel-summary">
        <span>
          <strong>{count.format(total)}</strong> {total === 1 ? 'proceso iniciado' : 'procesos iniciados'}
        </span>
        <span>
          <strong>{count.format(funnel.finished)}</strong> concluidos ({percent.format(funnel.finished / total)})
        </span>
        <span>
          <strong>{count.format(funnel.abandoned)}</strong> abandonados
        </span>
        <span>
          <strong>{count.format(funnel.inProgress)}</strong> en curso
        </span>
      </p>
      {funnel.pendingEvents > 0 ? <p className="notice">Aún se están leyendo {count.format(funnel.pendingEvents)} eventos anteriores: vuelve a consultar para ver las cifras completas.</p> : null}
    </>
  );
}

/** One SVG bar per step (hidden from assistive technology, which reads the table). */
function FunnelChart({ steps, total }: { steps: ConsoleFunnel['steps']; total: number }) {
  return (
    <figure className="funnel-chart">
      <figcaption id="funnel-chart-title">Procesos que llegaron a cada paso (la tabla siguiente tiene las mismas cifras)</figcaption>
      <ol aria-labelledby="funnel-chart-title">
        {steps.map((s) => {
          const share = s.reached / total;
          return (
            <li key={s.step}>
              <span className="funnel-label">{s.label}</span>
              <svg className="funnel-bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                <rect className="funnel-track" x="0" y="0" width="100" height="10" />
                <rect className="funnel-fill" x="0" y="0" width={Math.max(share * 100, s.reached > 0 ? 0.5 : 0)} height="10" />
              </svg>
              <span className="funnel-value">
                {count.format(s.reached)} · {percent.format(share)}
                {s.stoppedHere > 0 ? <span className="muted"> · {count.format(s.stoppedHere)} se quedaron aquí</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
    </figure>
  );
}

/** The same figures per step as a table. */
function FunnelTable({ steps, total }: { steps: ConsoleFunnel['steps']; total: number }) {
  return (
    <table className="cases funnel-table">
      <caption>Detalle por paso</caption>
      <thead>
        <tr>
          <th scope="col">Paso</th>
          <th scope="col">Llegaron</th>
          <th scope="col">Del total</th>
          <th scope="col">Conversión desde el paso anterior</th>
          <th scope="col">Abandonaron aquí</th>
          <th scope="col">En curso aquí</th>
          <th scope="col">Mediana de tiempo</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((s) => (
          <tr key={s.step}>
            <th scope="row" data-label="Paso">
              {s.label}
            </th>
            <td data-label="Llegaron">{count.format(s.reached)}</td>
            <td data-label="Del total">{percent.format(s.reached / total)}</td>
            <td data-label="Conversión desde el paso anterior">{s.conversion === null ? '—' : percent.format(s.conversion)}</td>
            <td data-label="Abandonaron aquí">{count.format(s.stoppedHere)}</td>
            <td data-label="En curso aquí">{count.format(s.inProgressHere)}</td>
            <td data-label="Mediana de tiempo">{formatDuration(s.medianMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
