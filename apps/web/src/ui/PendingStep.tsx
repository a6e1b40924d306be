import { LoadingState } from './LoadingState';

/**
 * The shared loading state of a step that is about to redirect (a consent the grantor turned off, a browser that can
 * already record): never a fake result.
 */
export function PendingStep({ step }: { step: string }) {
  return (
    <main className="screen screen--pending" data-step={step} aria-busy="true">
      <LoadingState />
    </main>
  );
}
