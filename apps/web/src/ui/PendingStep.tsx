import { LoadingState } from './LoadingState';

/**
 * The screen of a step whose capability is not built yet (capture, video, results, clause...): the shared
 * loading state, never a fake result. Each route replaces it with its real screen.
 */
export function PendingStep({ step }: { step: string }) {
  return (
    <main className="screen screen--pending" data-step={step} aria-busy="true">
      <LoadingState />
    </main>
  );
}
