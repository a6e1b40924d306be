import { useState, type ReactNode } from 'react';
import type { TermsAcceptance } from '../journey/types';
import { sha256Hex } from '../steps/terminos/terms';
import { texts as common } from '../i18n/es-MX/common';
import { Screen } from './Screen';

interface DocumentAcceptScreenProps {
  title: string;
  step: string;
  /** The screen's CSS block: 'terms' or 'consent-document' (…__status, …__text). */
  block: string;
  /** The text shown and accepted ('\n' between paragraphs) and its version. */
  document: { text: string; version: string };
  acceptLabel: string;
  acceptedLabel: string;
  onAccept: (acceptance: TermsAcceptance) => void;
  /** Actions after the accept control; told whether the document was accepted. */
  extraActions?: (accepted: boolean) => ReactNode;
  /** Shown above the text (e.g. the legal city and date). */
  before?: ReactNode;
  /** Shown below the text (e.g. the version, a dialog). */
  children?: ReactNode;
}

/**
 * A consent document screen (/terminos, /consulta_historial, /validacion_documento, /autorizacion_documento):
 * title, text and one accept checkbox. Accepting records version, SHA-256 of the exact text shown and user agent.
 */
export function DocumentAcceptScreen(props: DocumentAcceptScreenProps) {
  const { title, step, block, document, acceptLabel, acceptedLabel, onAccept, extraActions, before, children } = props;
  const [accepted, setAccepted] = useState(false);
  const [failed, setFailed] = useState(false);

  async function accept(): Promise<void> {
    setAccepted(true);
    setFailed(false);
    try {
      const sha256 = await sha256Hex(document.text);
      onAccept({ version: document.version, sha256, userAgent: navigator.userAgent });
    } catch {
      setAccepted(false);
      setFailed(true);
    }
  }

  return (
    <Screen
      title={title}
      step={step}
      className={block}
      actions={
        <>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={accepted}
              disabled={accepted}
              onChange={(event) => {
                if (event.target.checked) void accept();
              }}
            />
            <span>{acceptLabel}</span>
          </label>
          <div role="status" className={`${block}__status`}>
            {accepted ? acceptedLabel : null}
          </div>
          <div role="alert" className={`${block}__status`}>
            {failed ? common.notices.unexpected : null}
          </div>
          {extraActions?.(accepted)}
        </>
      }
    >
      {before}
      <div className={`${block}__text`}>{document.text.split('\n').map((line, index) => (line.trim() ? <p key={index}>{line}</p> : null))}</div>
      {children}
    </Screen>
  );
}
