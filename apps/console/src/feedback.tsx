import { useCallback, useState } from 'react';
import { ApiError } from './api';

/** The error (and per-field errors) of a screen or panel; a 401 ends the session. `fallback`: the text when the service gave none. */
export function useFailure(onSignedOut: (notice?: string) => void, fallback = 'No pudimos completar la solicitud. Inténtalo de nuevo.') {
  const [error, setError] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const fail = useCallback(
    (e: unknown) => {
      if (e instanceof ApiError && e.status === 401) return onSignedOut(e.text);
      setError(e instanceof ApiError ? e.text : fallback);
      setFields(e instanceof ApiError ? e.fields : {});
    },
    [onSignedOut, fallback],
  );
  const clear = useCallback(() => {
    setError('');
    setFields({});
  }, []);
  /** The person edited a refused field: its refusal no longer applies. */
  const forget = useCallback((key: string) => setFields((f) => (key in f ? Object.fromEntries(Object.entries(f).filter(([k]) => k !== key)) : f)), []);
  return { error, fields, fail, clear, forget };
}

/** A screen's error (alert) and notice (status) lines. */
export function Messages({ error, notice }: { error: string; notice?: string }) {
  return (
    <>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
    </>
  );
}
