import { useEffect, useState } from 'react';
import type { ConsoleGrantors } from '@kyc/contracts';
import { ApiError } from './api';

export type Grantor = ConsoleGrantors['grantors'][number];

interface Props {
  grantors: readonly Grantor[];
  /** The grantor chosen ('' before the list arrived). */
  value: string;
  onChange(grantorId: string): void;
}

/**
 * A platform operator's choice of grantor, under the top bar: every screen the operator opens (cases, funnel,
 * webhooks, settings) then concerns that grantor only. The server checks the role again on every call.
 */
export function GrantorPicker({ grantors, value, onChange }: Props) {
  const current = grantors.find((g) => g.id === value);
  return (
    <div className="scopebar">
      <div className="field">
        <label htmlFor="scope-grantor">Otorgante</label>
        <select id="scope-grantor" value={value} disabled={grantors.length === 0} onChange={(e) => onChange(e.currentTarget.value)}>
          {grantors.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
      </div>
      <p className="hint" aria-live="polite">
        {current ? `Estás viendo los datos de ${current.name}.` : grantors.length === 0 ? 'No hay otorgantes registrados.' : ''}
      </p>
    </div>
  );
}

type Loaded = { kind: 'loading' } | { kind: 'failed'; text: string } | { kind: 'ready'; grantors: Grantor[] };

/** The grantors a platform operator may choose from (GET /console/api/grantors); a 401 signs out. */
export function useGrantors(load: () => Promise<ConsoleGrantors>, onSignedOut: (notice?: string) => void): Loaded {
  const [state, setState] = useState<Loaded>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    load()
      .then((g) => live && setState({ kind: 'ready', grantors: g.grantors }))
      .catch((e: unknown) => {
        if (!live) return;
        if (e instanceof ApiError && e.status === 401) onSignedOut(e.text);
        else setState({ kind: 'failed', text: e instanceof ApiError ? e.text : 'No pudimos cargar los otorgantes.' });
      });
    return () => {
      live = false;
    };
  }, [load, onSignedOut]);
  return state;
}
