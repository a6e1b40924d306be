import type { ReactNode } from 'react';
import { copy } from './copy';
import { Screen } from './Screen';

interface NoticeProps {
  title: string;
  message: string;
  children?: ReactNode;
  /** Primary action; defaults to REINTENTAR, which reloads the page. */
  actionLabel?: string;
  onAction?: () => void;
  step?: string;
}

const reload = (): void => window.location.reload();

/** A blocking notice: title, the spec's message and one action. Works with or without the router. */
export function Notice({ title, message, children, actionLabel = copy.common.retry, onAction = reload, step }: NoticeProps) {
  return (
    <Screen
      title={title}
      className="screen--notice"
      step={step}
      actions={
        <button type="button" className="btn btn--primary" onClick={onAction}>
          {actionLabel}
        </button>
      }
    >
      <p className="notice__message" role="alert">
        {message}
      </p>
      {children}
    </Screen>
  );
}

export function BadUrlNotice({ onRetry }: { onRetry?: () => void }) {
  return <Notice title={copy.notices.badUrlTitle} message={copy.notices.badUrl} step="url_invalida" {...(onRetry ? { onAction: onRetry } : {})} />;
}

export function CookiesNotice() {
  return <Notice title={copy.notices.cookiesTitle} message={copy.notices.cookies} step="cookies" />;
}

export function UnsupportedBrowserNotice() {
  return (
    <Notice title={copy.notices.unsupportedTitle} message={copy.notices.unsupported} step="navegador_incompatible">
      <p>{copy.notices.unsupportedHint}</p>
    </Notice>
  );
}

export function UnexpectedErrorNotice() {
  return <Notice title={copy.notices.unexpectedTitle} message={copy.notices.unexpected} step="error" />;
}
