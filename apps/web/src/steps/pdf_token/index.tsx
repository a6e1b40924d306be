import { useEffect, useState } from 'react';
import { useLocation } from '../../navigation/router';
import { checkLinkStatus, fetchPublicGrantorParams } from '../../api/calls';
import { ApiError, isAbortError } from '../../api/client';
import { useJourney } from '../../journey/run';
import { currentPlatform, isIOS } from '../../media/platform';
import { setGrantorParams } from '../../session/grantor';
import { sessionState } from '../../session/storage';
import { texts as common } from '../../i18n/es-MX/common';
import { LoadingState } from '../../ui/LoadingState';
import { BadUrlNotice, Notice } from '../../ui/Notice';
import { ContinueOnceButton } from '../../ui/ContinueOnceButton';
import { Screen } from '../../ui/Screen';
import { beginLinkJourney, expiryLabel, linkBrowserSupport, parseLinkQuery, type LinkBrowser } from './link';
import { texts } from '../../i18n/es-MX/pdf_token';
import './pdf_token.css';

type Status = 'loading' | 'ready' | 'badUrl' | 'offline';

function browserSupport(): LinkBrowser {
  const hints = currentPlatform();
  return linkBrowserSupport({
    userAgent: hints.userAgent,
    ios: isIOS(hints),
    hasGetUserMedia: typeof navigator.mediaDevices?.getUserMedia === 'function',
    hasMediaRecorder: typeof MediaRecorder !== 'undefined',
  });
}

/**
 * /pdf_token (docs/flow.md §2 result-link flow): stores the link's query in a fresh browser state, loads the grantor's
 * public parameters, sends an expired link to /pdf_token_error, shows the expiry and the single-consultation
 * warning, and CONTINUAR goes to the link flow's face video.
 */
export function Component() {
  const location = useLocation();
  const journey = useJourney('pdf_token');
  const [link] = useState(() => parseLinkQuery(location.search));
  const [status, setStatus] = useState<Status>(link ? 'loading' : 'badUrl');
  const [attempt, setAttempt] = useState(0);
  const [support] = useState(browserSupport);

  useEffect(() => {
    if (!link) return;
    if (attempt === 0) {
      beginLinkJourney(link, sessionState(), () => crypto.randomUUID());
      setGrantorParams(null);
      // Past fecha: straight to the expired-link page.
      if (journey({ type: 'enter' })) return;
    }
    const controller = new AbortController();
    const token = sessionState().get('linkToken');
    Promise.all([fetchPublicGrantorParams(link.idOtorgante, 'pdf_token', controller.signal), token ? checkLinkStatus(token, 'pdf_token', controller.signal) : null]).then(
      ([params, refused]) => {
        setGrantorParams(params);
        if (refused) journey({ type: 'linkRefused', reason: refused });
        else setStatus('ready');
      },
      (error: unknown) => {
        if (isAbortError(error)) return;
        setStatus(error instanceof ApiError && error.hasResponse ? 'badUrl' : 'offline');
      },
    );
    return () => controller.abort();
  }, [link, attempt, journey]);

  if (status === 'badUrl') return <BadUrlNotice />;
  if (status === 'offline') {
    return <Notice title={common.notices.unexpectedTitle} message={common.network} step="pdf_token" onAction={() => setAttempt((n) => n + 1)} />;
  }
  if (support !== 'ok') {
    return (
      <Notice title={texts.browser.title} message={common.notices.unsupported} step="pdf_token" actionLabel={common.retry}>
        <p>{support === 'useSafari' ? texts.browser.useSafari : texts.browser.useChromeOrEdge}</p>
      </Notice>
    );
  }
  if (status === 'loading') {
    return (
      <main className="screen screen--pending" data-step="pdf_token" aria-busy="true">
        <LoadingState label={texts.loading} />
      </main>
    );
  }

  const expiry = expiryLabel(sessionState().get('fechavigencia'));
  return (
    <Screen title={texts.title} step="pdf_token" className="link" actions={<ContinueOnceButton onContinue={() => journey({ type: 'continue' })} />}>
      <p>{texts.intro}</p>
      {expiry ? (
        <p className="link__expiry">
          {texts.expiry} <strong>{expiry}</strong>.
        </p>
      ) : null}
      <p className="link__warning">{texts.once}</p>
    </Screen>
  );
}
