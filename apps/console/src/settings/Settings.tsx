import { useState } from 'react';
import type { ScreenProps } from '../screens';
import { Endpoints } from './Endpoints';
import { Keys } from './Keys';
import { Params } from './Params';
import { Retention } from './Retention';
import { Users } from './Users';

/** The settings' panels, in the tabs' order. */
const panels = [
  { id: 'params', label: 'Parámetros', Panel: Params },
  { id: 'keys', label: 'Claves secretas', Panel: Keys },
  { id: 'endpoints', label: 'Destinos de webhooks', Panel: Endpoints },
  { id: 'users', label: 'Usuarios y roles', Panel: Users },
  { id: 'retention', label: 'Conservación', Panel: Retention },
] as const;

/** Admins only (the server refuses everyone else): the grantor's parameters, keys, webhook endpoints, users and retention. */
export function Settings(props: ScreenProps) {
  const [current, setCurrent] = useState<(typeof panels)[number]['id']>('params');
  const panel = panels.find((p) => p.id === current)!;
  return (
    <main className="page settings">
      <h1>Configuración</h1>
      <nav className="tabs" aria-label="Apartados de configuración">
        {panels.map((p) => (
          <button key={p.id} type="button" aria-current={p.id === current ? 'page' : undefined} onClick={() => setCurrent(p.id)}>
            {p.label}
          </button>
        ))}
      </nav>
      <panel.Panel {...props} />
    </main>
  );
}
