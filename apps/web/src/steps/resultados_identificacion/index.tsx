import { PendingStep } from '../../ui/PendingStep';

export function Component() {
  return <PendingStep step="resultados_identificacion" />;
}
