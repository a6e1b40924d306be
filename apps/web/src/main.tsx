import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from './navigation/router';
import { createAppRouter } from './router';
import { AppShell, BootFallback, RootError } from './ui/AppShell';
import { probeLocalStorage } from './session/storage';
import { CookiesNotice, UnsupportedBrowserNotice } from './ui/Notice';
import { detectSupport } from './ui/support';
import { applyTheme, themeVariables } from './ui/theme';
import './styles/global.css';

const container = document.getElementById('root');
if (container) {
  const root = createRoot(container);
  const support = detectSupport(globalThis, () => probeLocalStorage() !== null);
  if (support === 'ok') {
    root.render(
      <StrictMode>
        <RouterProvider router={createAppRouter()} Layout={AppShell} Fallback={BootFallback} ErrorScreen={RootError} />
      </StrictMode>,
    );
  } else {
    applyTheme(themeVariables(null));
    root.render(
      <div className="app">
        <header className="app-header" />
        {support === 'cookies' ? <CookiesNotice /> : <UnsupportedBrowserNotice />}
      </div>,
    );
  }
}
