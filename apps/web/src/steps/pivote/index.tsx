import { useEffect, useRef, useState } from 'react';
import { createLauncher, type FlowError, type FlowMessage, type LauncherFailure } from '@kyc/launcher';
import { texts } from '../../i18n/es-MX/pivote';
import { Screen } from '../../ui/Screen';
import './pivote.css';

type Kind = 'status' | 'errors' | 'finish';

interface Row {
  id: number;
  kind: Kind;
  message: FlowMessage | LauncherFailure;
}

/** The launcher's script, as the README's integration loads it. */
const launcherScript = '/launcher/v1/launcher.js';

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
      onComplete: (result) => setOutcome(texts.completed(result.result)),
      onError: (error) => setErrors((current) => [...current, error]),
      onUserExit: (exit) => setOutcome(exit.reason === 'cancelled' ? texts.cancelled(exit.step ?? '') : texts.closed(exit.step)),
      debug: true,
      status: (message) => add('status', message),
      errors: (message) => add('errors', message),
      finish: (message) => add('finish', message),
    });
    return () => launcher.destroy();
  }, [key]);

  return (
    <Screen title={texts.title} step="pivote" className="pivote">
      <p>
        {texts.introBefore}
        <code>{launcherScript}</code>
        {texts.introAfter}
      </p>
      <div className="pivote__launcher" ref={container} />
      <h2 className="section-title" id="pivote-messages">
        {texts.messages}
      </h2>
      {/* Scrolls sideways on a phone: focusable so the keyboard can scroll it too. */}
      <div className="pivote__table-wrap" role="region" aria-labelledby="pivote-messages" tabIndex={0}>
        <table className="pivote__table" aria-labelledby="pivote-messages">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{texts.columns.step}</th>
              <th scope="col">{texts.columns.result}</th>
              <th scope="col">{texts.columns.callback}</th>
              <th scope="col">{texts.columns.data}</th>
            </tr>
          </thead>
          <tbody aria-live="polite">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={5}>{texts.noMessages}</td>
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
      <h2 className="section-title">{texts.errors}</h2>
      <div className="pivote__errors" role="log" aria-live="polite">
        {errors.length === 0 ? (
          <p>{texts.noErrors}</p>
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
