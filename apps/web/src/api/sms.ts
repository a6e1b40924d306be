import { originOS } from '../media/platform';
import { readSession } from '../session/session';
import { api } from './calls';

export type AreaCode = '52' | '51';

function client() {
  return {
    uuid: readSession().uuidUser ?? '',
    platform: originOS({ userAgent: navigator.userAgent, platform: navigator.platform, maxTouchPoints: navigator.maxTouchPoints }),
  };
}

/** token_sms_ac (docs/flow.md §7): sends a code to the number. */
export async function sendSmsCode(step: string, number: string, areaCode: AreaCode): Promise<void> {
  await api().request('tokenSms', { step, body: { client: client(), phone: { number, areaCode } } });
}

/** verify_token_sms/verify (docs/flow.md §7): checks the code sent to the number. */
export async function verifySmsCode(step: string, number: string, areaCode: AreaCode, token: string): Promise<void> {
  await api().request('verifySms', { step, body: { client: client(), phone: { number, areaCode, token } } });
}
