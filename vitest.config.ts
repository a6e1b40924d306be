import { defineConfig } from 'vitest/config';

// One vitest run covers every suite; `scripts/test.mjs` sums them into the CI's last line.
const sourceConditions = { resolve: { conditions: ['source'] }, ssr: { resolve: { conditions: ['source'] } } };

// The flow's screens render on preact/compat in production (apps/web/vite.config.ts), so their component tests do too.
const preactCompat = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx(-dev)?-runtime$/, replacement: 'preact/jsx-runtime' },
];

export default defineConfig({
  test: {
    projects: [
      {
        ...sourceConditions,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/web/src/**/*.test.ts', 'apps/console/src/**/*.test.ts', 'apps/server/test/**/*.unit.test.ts'],
        },
      },
      {
        resolve: { conditions: ['source'], alias: preactCompat },
        test: {
          // Component tests of the flow's and the console's screens (@testing-library/preact in a happy-dom document).
          name: 'web',
          environment: 'happy-dom',
          include: ['apps/web/src/**/*.test.tsx', 'apps/console/src/**/*.test.tsx'],
        },
      },
      {
        ...sourceConditions,
        test: {
          name: 'api',
          environment: 'node',
          include: ['apps/server/test/**/*.api.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...sourceConditions,
        test: {
          // One upload-heavy API file again with its blobs in an s3rver instead of DATA_DIR/blobs: the S3 store is a drop-in.
          name: 'api-s3',
          environment: 'node',
          include: ['apps/server/test/results.api.test.ts'],
          env: { TEST_BLOB_STORE: 's3' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...sourceConditions,
        test: {
          // Two API processes and a worker of the built server on PostgreSQL, s3rver and Redis (needs DATABASE_URL).
          name: 'scale',
          environment: 'node',
          include: ['apps/server/test/scale/**/*.scale.test.ts'],
          // Ceilings for a loaded shared machine; the file needs about 50 CPU-seconds in all (measured).
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        ...sourceConditions,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/journeys/**/*.e2e.ts'],
          // Every journey starts its own server, data folder and browser, so two run at once, in a group of their own
          // after the other suites (their real face-video timings leave the cores half idle; docs/decisions.md).
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          // A page under a loaded CI machine can take seconds to enable a button: polls wait up to 15 s, not 1 s.
          expect: { poll: { timeout: 15_000, interval: 100 } },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
