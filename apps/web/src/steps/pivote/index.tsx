import { useEffect, useRef, useState } from 'react';
import { createLauncher, type FlowError, type FlowMessage, type LauncherFailure } from '@kyc/launcher';
import { Screen } from '../../ui/Screen';
import './pivote.css';

type Kind = 'status' | 'errors' | 'finish';

interface Row {
  id: number;
  kind: Kind;
  message: FlowMessage | LauncherFailure;
}

const kindLabel: Record<Kind, string> = { status: 'status', errors: 'errors', finish: 'finish' };

/** Everything but step and result: what the message carries. */
function dataOf(message: FlowMessage | LauncherFailure): string {
  const { step: _step, result: _result, ...rest } = message as unknown as Record<string, unknown>;
  return JSON.stringify(rest);
}

/**
 * Demo page for integrators (docs/flow.md §2 Demo /pivote): the real launcher against this server with the demo grantor
 * (or ?apikey=...), a live table of the messages it passes on, and an errors block.
 */
export function Component() {
  const container = useRef<HTMLDivElement>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [errors, setErrors] = useState<FlowError[]>([]);
  const [outcome, setOutcome] = useState<string | null>(null);
  const key = new URLSearchParams(window.location.search).get('apikey') || 'demo';

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let next = 0;
    const add = (kind: Kind, message: FlowMessage | LauncherFailure) => {
      next += 1;
      const id = next;
      setRows((current) => [...current, { id, kind, message }]);
    };
    // The integration of the README ("Embedding the flow in a partner page"), plus the raw callbacks for the table.
    const launcher = createLauncher({
      key,
      container: element,
      urls: { prod: window.location.origin },
      onComplete: (result) => setOutcome(`Proceso concluido (${result.result}).`),
      onError: (error) => setErrors((current) => [...current, error]),
      onUserExit: (exit) =>
        setOutcome(exit.reason === 'cancelled' ? `La persona canceló en el paso ${exit.step ?? ''}.` : `La persona cerró la ventana${exit.step ? ` después del paso ${exit.step}` : ''}.`),
      debug: true,
      status: (message) => add('status', message),
      errors: (message) => add('errors', message),
      finish: (message) => add('finish', message),
    });
    return () => launcher.destroy();
  }, [key]);

  return (
    <Screen title="Demo para integradores" step="pivote" className="pivote">
      <p>
        Este botón es el lanzador que un sitio aliado inserta en su página (<code>/launcher/v1/launcher.js</code>). Abre el proceso en una ventana emergente y aquí se muestran los mensajes que envía.
      </p>
      <div className="pivote__launcher" ref={container} />
      <h2 className="section-title" id="pivote-messages">
        Mensajes recibidos
      </h2>
      {/* Scrolls sideways on a phone: focusable so the keyboard can scroll it too. */}
      <div className="pivote__table-wrap" role="region" aria-labelledby="pivote-messages" tabIndex={0}>
        <table className="pivote__table" aria-labelledby="pivote-messages">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Paso (step)</th>
              <th scope="col">Estado (result)</th>
              <th scope="col">Callback</th>
              <th scope="col">Datos</th>
            </tr>
          </thead>
          <tbody aria-live="polite">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={5}>Aún no hay mensajes.</td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id} data-kind={row.kind}>
                  <td>{row.id}</td>
                  <td>{row.message.step}</td>
                  <td>{row.message.result}</td>
                  <td>{kindLabel[row.kind]}</td>
                  <td>
                    <code>{dataOf(row.message)}</code>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <h2 className="section-title">Errores</h2>
      <div className="pivote__errors" role="log" aria-live="polite">
        {errors.length === 0 ? (
          <p>Sin errores.</p>
        ) : (
          <ul>
            {errors.map((error, index) => (
              <li key={index}>
                <strong>{error.step}</strong>: {error.text}
              </li>
            ))}
          </ul>
        )}
      </div>
      <p role="status" className="pivote__finish">
        {outcome}
      </p>
    </Screen>
  );
}
