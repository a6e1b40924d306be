import { PendingStep } from '../../ui/PendingStep';

export function Component() {
  return <PendingStep step="video_token" />;
}
