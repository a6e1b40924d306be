import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Alias, type ProxyOptions } from 'vite';

const apiTarget = 'http://127.0.0.1:8080';
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  ['/v1', '/v2', '/record', '/healthz', '/openapi.json'].map((prefix) => [prefix, { target: apiTarget }]),
);

// The flow is written against React's API; production bundles run it on preact/compat, which keeps the entry
// route small (react-dom alone is ~63 KB gzipped). The dev server keeps React for its tools.
const preactCompat: Alias[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx(-dev)?-runtime$/, replacement: 'preact/jsx-runtime' },
];

export default defineConfig(({ command }) => ({
  plugins: [react()],
  // `source` makes @kyc/contracts/* resolve to its TypeScript source (no contracts build needed).
  resolve: {
    conditions: ['source', ...defaultClientConditions],
    alias: command === 'build' ? preactCompat : [],
  },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Safari 15.4 is the oldest that has crypto.randomUUID and <dialog>, which the flow needs anyway.
    target: ['chrome92', 'edge92', 'firefox92', 'safari15.4'],
  },
}));
