import type { GrantorParam } from '@kyc/contracts/params';
import { api } from '../../api/calls';
import { readSession } from '../../session/session';
import { checksToRun, ineBody, renapoBody, type FormSpec, type FormValues } from './form-model';

const ignore = (): void => undefined;

/**
 * Renapo (CURP) and INE-list checks after a confirmed form, fire-and-forget (docs/flow.md §8: "Renapo and INE
 * failures are only logged; the flow continues"): the api client records every failure to the audit call.
 */
export function fireIdentityChecks(spec: FormSpec, values: FormValues, params: readonly GrantorParam[] | null): void {
  const session = readSession();
  const uuid = session.uuidUser ?? '';
  const { renapo, ine } = checksToRun(spec, params);
  if (renapo) {
    api()
      .request('renapo', { step: 'resultados_identificacion', body: renapoBody(uuid, values) })
      .catch(ignore);
  }
  if (ine) {
    api()
      .request('ine', {
        step: 'resultados_identificacion',
        body: ineBody(uuid, values),
        headers: session.idOtorgante ? { Otorgante: session.idOtorgante } : {},
      })
      .catch(ignore);
  }
}
