import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ConsoleUser } from '@kyc/contracts';
import { api, ApiError } from './api';

interface Props {
  notice?: string | undefined;
  onSignedIn(user: ConsoleUser): void;
}

/** Correo and contraseña, then the 6-digit code when the user has a second factor. */
export function SignIn({ notice, onSignedIn }: Props) {
  const [stage, setStage] = useState<'password' | 'totp'>('password');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (stage === 'totp') codeInput.current?.focus();
  }, [stage]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError('');
    setBusy(true);
    try {
      const state = stage === 'password' ? await api.signIn(email, password) : await api.totp(code);
      if (state.stage === 'totp') {
        setPassword('');
        setStage('totp');
      } else if (state.user) {
        onSignedIn(state.user);
      }
    } catch (e) {
      const text = e instanceof ApiError ? e.text : 'No pudimos iniciar sesión. Inténtalo de nuevo.';
      // A half sign-in that expired or failed starts over from the password.
      if (stage === 'totp' && e instanceof ApiError && e.status !== 401) setStage('password');
      if (stage === 'totp' && e instanceof ApiError && e.status === 401 && /sesión/.test(text)) setStage('password');
      setError(text);
      setCode('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="centered">
      <form className="card sign-in" onSubmit={submit} noValidate={false}>
        <h1>Consola de revisión</h1>
        {notice ? (
          <p className="notice" role="status">
            {notice}
          </p>
        ) : null}
        {stage === 'password' ? (
          <>
            <p className="hint">Inicia sesión con tu correo de trabajo.</p>
            <label htmlFor="email">Correo electrónico</label>
            <input id="email" name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
            <label htmlFor="password">Contraseña</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          </>
        ) : (
          <>
            <p className="hint">Escribe el código de 6 dígitos que muestra tu aplicación de autenticación.</p>
            <label htmlFor="code">Código de verificación</label>
            <input
              id="code"
              name="code"
              ref={codeInput}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
            />
          </>
        )}
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={busy}>
          {stage === 'password' ? 'Iniciar sesión' : 'Verificar código'}
        </button>
      </form>
    </main>
  );
}
