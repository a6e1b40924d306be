import { useEffect, useState } from 'react';
import type { ConsoleUser } from '@kyc/contracts';
import { api } from './api';
import { Cases } from './Cases';
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
  return <Cases user={state.user} onSignedOut={(notice) => setState({ kind: 'signedOut', notice })} />;
}
