import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Alias } from 'vite';

// The lender's review console: its own app and bundle, served by the service under /console (README "Review
// console"). Like the flow it is written against React's API and built on preact/compat.
const preactCompat: Alias[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx(-dev)?-runtime$/, replacement: 'preact/jsx-runtime' },
];

export default defineConfig(({ command }) => ({
  base: '/console/',
  plugins: [react()],
  resolve: {
    conditions: ['source', ...defaultClientConditions],
    alias: command === 'build' ? preactCompat : [],
  },
  server: { proxy: { '/console/api': { target: 'http://127.0.0.1:8080' } } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: ['chrome92', 'edge92', 'firefox92', 'safari15.4'],
  },
}));
