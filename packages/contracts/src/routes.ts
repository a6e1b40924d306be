/** Method and path of every call (zod-free, so the web's entry chunk stays small). */
export const routes = {
  health: { method: 'GET', path: '/healthz' },
  ready: { method: 'GET', path: '/readyz' },
  grantorParams: { method: 'GET', path: '/v1/params' },
  publicGrantorParams: { method: 'GET', path: '/v1/public/params/:idOtorgante' },
  updateCycle: { method: 'POST', path: '/v1/update_cycle' },
  auditEvent: { method: 'POST', path: '/v1/celd_events' },
  transactionEvents: { method: 'GET', path: '/v1/transactions/:uuidTrx/events' },
  renapo: { method: 'POST', path: '/v1/renapo' },
  ine: { method: 'POST', path: '/v1/ine' },
  ocr: { method: 'POST', path: '/v2/ocr' },
  otp: { method: 'POST', path: '/v1/otp' },
  videoTokenCode: { method: 'POST', path: '/v1/videotoken/code' },
  videoToken: { method: 'POST', path: '/v2/videotoken' },
  publicVideoToken: { method: 'POST', path: '/v1/public_video_token' },
  publicOtp: { method: 'POST', path: '/v1/public_otp' },
  linkStatus: { method: 'GET', path: '/v1/public/link_status' },
  idCalibrate: { method: 'POST', path: '/v1/id_calibrate' },
  tokenSms: { method: 'POST', path: '/v1/token_sms_ac' },
  verifySms: { method: 'PATCH', path: '/v1/verify_token_sms/verify' },
  queryScore: { method: 'GET', path: '/v1/query_score/:uuidUser/:uuidTrx' },
  processDocuments: { method: 'POST', path: '/v1/proccessdocuments' },
  file: { method: 'POST', path: '/v1/file' },
  postalCodes: { method: 'POST', path: '/v1/postalcodes' },
  nom151: { method: 'POST', path: '/v1/nom_151' },
  emailResult: { method: 'POST', path: '/v1/async_zip_nom_151_correo' },
  enlace: { method: 'GET', path: '/v1/enlace/:token' },
  launcherIdentity: { method: 'POST', path: '/v1/launcher/identity' },
  launcherAuth: { method: 'POST', path: '/v1/launcher/auth' },
  launcherVerify: { method: 'POST', path: '/v1/launcher/verify' },
  recordConnections: { method: 'POST', path: '/record/connections' },
  recordRemoteDescription: { method: 'POST', path: '/record/connections/:id/remote-description' },
  recordClose: { method: 'DELETE', path: '/record/connections/:id' },
  facesCompare: { method: 'POST', path: '/v1/faces/compare' },
} as const;

export type RouteName = keyof typeof routes;

/** Fills a path template: pathOf('/v1/x/:id', {id: 'a'}) → '/v1/x/a'. */
export function pathOf(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** The real-time media server's data channel (docs/flow.md §7): its label and the texts exchanged besides JSON. */
export const realtimeChannel = { label: 'ping-pong', finish: 'finish_record', ping: 'ping', pong: 'pong' } as const;
export const realtimeRecordingTypes = ['VIDEO_TOKEN', 'VIDEO_TOKEN_PDF', 'HOLOGRAMA'] as const;
export type RealtimeRecordingType = (typeof realtimeRecordingTypes)[number];
