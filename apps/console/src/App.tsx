import { Suspense, useEffect, useState, type ReactNode } from 'react';
import type { ConsoleUser } from '@kyc/contracts';
import { api } from './api';
import { GrantorPicker, useGrantors } from './GrantorPicker';
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

interface ShellProps {
  user: ConsoleUser;
  onSignedOut(notice?: string): void;
}

/** The signed-in console: a platform operator first chooses the grantor every screen then concerns. */
function Shell(props: ShellProps) {
  return props.user.role === 'operator' ? <OperatorShell {...props} /> : <Frame {...props} grantorId={undefined} scope={null} />;
}

/** The operator's shell: the grantor picker under the top bar, and the screens of the grantor chosen. */
function OperatorShell(props: ShellProps) {
  const loaded = useGrantors(api.grantors, props.onSignedOut);
  const [chosen, setChosen] = useState('');
  const grantors = loaded.kind === 'ready' ? loaded.grantors : [];
  const grantorId = grantors.some((g) => g.id === chosen) ? chosen : (grantors[0]?.id ?? '');
  // Set before the screens below run their effects: every call they make names this grantor (idempotent).
  api.chooseGrantor(grantorId);
  const scope =
    loaded.kind === 'loading' ? (
      <p className="hint scopebar">Cargando otorgantes…</p>
    ) : loaded.kind === 'failed' ? (
      <p className="error scopebar" role="alert">
        {loaded.text}
      </p>
    ) : (
      <GrantorPicker grantors={grantors} value={grantorId} onChange={setChosen} />
    );
  return <Frame {...props} grantorId={grantorId || undefined} scope={scope} />;
}

/** The top bar (sections the user's role sees, who is signed in), the operator's picker and the section open. */
function Frame({ user, onSignedOut, grantorId, scope }: ShellProps & { grantorId: string | undefined; scope: ReactNode }) {
  const visible = screens.filter((s) => s.roles.includes(user.role));
  const [current, setCurrent] = useState(visible[0]!.id);
  const screen = visible.find((s) => s.id === current) ?? visible[0]!;
  const waiting = user.role === 'operator' && !grantorId;

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
      {scope}
      {waiting ? null : (
        <Suspense
          fallback={
            <main className="page" aria-busy="true">
              <p className="hint">Cargando…</p>
            </main>
          }
        >
          {/* A new grantor is a new screen: nothing of the previous grantor's stays on it. */}
          <screen.Component key={grantorId ?? ''} user={user} grantorId={grantorId} onSignedOut={onSignedOut} />
        </Suspense>
      )}
    </>
  );
}
