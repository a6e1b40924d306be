import { Suspense, useEffect, useState } from 'react';
import type { ConsoleUser } from '@kyc/contracts';
import { api } from './api';
import { roleLabels } from './labels';
import { screens } from './screens';
import { SignIn } from './SignIn';

type State = { kind: 'loading' } | { kind: 'signedOut'; notice?: string } | { kind: 'signedIn'; user: ConsoleUser };

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    api
      .session()
      .then((s) => setState(s.user ? { kind: 'signedIn', user: s.user } : { kind: 'signedOut' }))
      .catch(() => setState({ kind: 'signedOut' }));
  }, []);

  if (state.kind === 'loading')
    return (
      <main className="centered" aria-busy="true">
        <p>Cargando…</p>
      </main>
    );
  if (state.kind === 'signedOut') return <SignIn notice={state.notice} onSignedIn={(user) => setState({ kind: 'signedIn', user })} />;
  return <Shell user={state.user} onSignedOut={(notice) => setState({ kind: 'signedOut', notice })} />;
}

/** The top bar (sections the user's role sees, who is signed in) and the section open. */
function Shell({ user, onSignedOut }: { user: ConsoleUser; onSignedOut(notice?: string): void }) {
  const visible = screens.filter((s) => s.roles.includes(user.role));
  const [current, setCurrent] = useState(visible[0]!.id);
  const screen = visible.find((s) => s.id === current) ?? visible[0]!;

  async function signOut() {
    try {
      await api.signOut();
    } finally {
      onSignedOut('Cerraste sesión.');
    }
  }

  return (
    <>
      <header className="topbar">
        <div className="brand">
          <span className="title">Consola de revisión</span>
          {user.grantorName ? <span className="grantor">{user.grantorName}</span> : null}
        </div>
        {visible.length > 1 ? (
          <nav className="sections" aria-label="Secciones">
            {visible.map((s) => (
              <button key={s.id} type="button" aria-current={s.id === screen.id ? 'page' : undefined} onClick={() => setCurrent(s.id)}>
                {s.label}
              </button>
            ))}
          </nav>
        ) : null}
        <div className="who">
          <span>
            {user.email} · {roleLabels[user.role]}
          </span>
          <button type="button" className="secondary" onClick={signOut}>
            Cerrar sesión
          </button>
        </div>
      </header>
      <Suspense
        fallback={
          <main className="page" aria-busy="true">
            <p className="hint">Cargando…</p>
          </main>
        }
      >
        <screen.Component user={user} onSignedOut={onSignedOut} />
      </Suspense>
    </>
  );
}
