import type { ReactNode } from 'react';
import { texts as common } from '../i18n/es-MX/common';
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
export function Notice({ title, message, children, actionLabel = common.retry, onAction = reload, step }: NoticeProps) {
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
  return <Notice title={common.notices.badUrlTitle} message={common.notices.badUrl} step="url_invalida" {...(onRetry ? { onAction: onRetry } : {})} />;
}

export function CookiesNotice() {
  return <Notice title={common.notices.cookiesTitle} message={common.notices.cookies} step="cookies" />;
}

export function UnsupportedBrowserNotice() {
  return (
    <Notice title={common.notices.unsupportedTitle} message={common.notices.unsupported} step="navegador_incompatible">
      <p>{common.notices.unsupportedHint}</p>
    </Notice>
  );
}

export function UnexpectedErrorNotice() {
  return <Notice title={common.notices.unexpectedTitle} message={common.notices.unexpected} step="error" />;
}
