import { useLayoutEffect, type ReactNode } from 'react';
import { Outlet, RouteNotFoundError, useNavigation, useRouteError } from '../navigation/router';
import { useGrantorParams } from '../session/grantor';
import { texts as common } from '../i18n/es-MX/common';
import { BusyNotice } from './BusyNotice';
import { Header } from './Header';
import { LoadingState } from './LoadingState';
import { BadUrlNotice, UnexpectedErrorNotice } from './Notice';
import { landscapePhoneQuery, RotateNotice } from './RotateNotice';
import { applyTheme, themeVariables } from './theme';
import { useMediaQuery } from './useMediaQuery';

function Frame({ children }: { children: ReactNode }) {
  const params = useGrantorParams();
  useLayoutEffect(() => applyTheme(themeVariables(params)), [params]);
  const landscapePhone = useMediaQuery(landscapePhoneQuery);
  return (
    <>
      <div className="app" inert={landscapePhone}>
        <Header />
        {children}
        <BusyNotice />
      </div>
      {landscapePhone ? <RotateNotice /> : null}
    </>
  );
}

/** Root layout: grantor theme, header, the current step, and the shared overlays. */
export function AppShell() {
  const navigation = useNavigation();
  return (
    <Frame>
      <Outlet />
      {navigation.state === 'loading' ? (
        <div className="route-progress">
          <LoadingState label={common.loading} showLabel={false} />
        </div>
      ) : null}
    </Frame>
  );
}

/** First paint while the first step's code loads. */
export function BootFallback() {
  return (
    <Frame>
      <main className="screen screen--pending" aria-busy="true">
        <LoadingState />
      </main>
    </Frame>
  );
}

/** Unknown routes get the bad-URL notice; anything else (e.g. a chunk that failed to load) a retry. */
export function RootError() {
  const error = useRouteError();
  return <Frame>{error instanceof RouteNotFoundError ? <BadUrlNotice /> : <UnexpectedErrorNotice />}</Frame>;
}

/** "/" and unmatched paths: no api key, so the URL is not valid. */
export function MissingApikey() {
  return <BadUrlNotice />;
}
