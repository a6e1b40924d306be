import { IdCaptureScreen } from './IdCaptureScreen';
import { useIdCapture } from './useIdCapture';

/**
 * The ID capture (docs/flow.md §2 "ID capture", §4 "ID capture"): the decisions are `capture-machine.ts`, the I/O
 * `useIdCapture`, and `IdCaptureScreen` renders the state.
 */
export function Component() {
  return <IdCaptureScreen model={useIdCapture()} />;
}
