import { createLauncher, setLoadedFrom, version } from './index';

// The <script> build: window.KycLauncher.create({...}). The default prod URL is the server it came from.
const script = document.currentScript as HTMLScriptElement | null;
if (script?.src) setLoadedFrom(new URL(script.src).origin);

(window as unknown as { KycLauncher: unknown }).KycLauncher = { create: createLauncher, version };
