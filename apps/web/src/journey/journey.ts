import { paramEnabled } from '@kyc/contracts/params';
import { errorTexts } from '@kyc/contracts/texts';
import type { Effect, JourneyContext, JourneyEvent, StepEvents, StepId, Transition } from './types';

/** Delays of docs/flow.md §9 (ms). */
export const delays = {
  afterStart: 200,
  afterCheckboxAcceptance: 1000,
  afterConfirmation: 300,
  afterBackRead: 400,
  afterFaceMatch: 300,
  afterSmsSuccess: 200,
  popupClose: 1000,
  popupCloseAfterSms: 1500,
} as const;

/** Opener error text after a successful SMS check (docs/flow.md §4 "SMS success"). */
const smsOpenerText = 'El proceso no se concluyó correctamente';

export function entryRoute(ctx: JourneyContext): string {
  return ctx.apikey ? `/${encodeURIComponent(ctx.apikey)}` : '/';
}

/** /pdf_token with query uuid, idOtorgante and fecha (docs/flow.md §2 ID preparation). */
export function tokenPageRoute(ctx: JourneyContext): string {
  const query = new URLSearchParams({
    uuid: ctx.uuidUser ?? '',
    idOtorgante: ctx.idOtorgante ?? '',
    fecha: ctx.fechavigencia ?? '',
  });
  return `/pdf_token?${query.toString()}`;
}

/**
 * The link's landing page with its whole query (uuid, idOtorgante, fecha, uuidTrx): the link flow's restart after
 * its error-modal attempts (/pdf_token checks the expiry again and keeps the attempts of the same transaction).
 */
export function linkRestartRoute(ctx: JourneyContext): string {
  const query = new URLSearchParams({
    uuid: ctx.uuidUser ?? '',
    idOtorgante: ctx.idOtorgante ?? '',
    fecha: ctx.fechavigencia ?? '',
    uuidTrx: ctx.uuidTrx ?? '',
  });
  return `/pdf_token?${query.toString()}`;
}

function go(route: string, delayMs = 0, extra: Omit<Transition, 'route' | 'delayMs'> = {}): Transition {
  return { route, delayMs, ...extra };
}

function segment(ruta: string): string {
  return `/${encodeURIComponent(ruta)}`;
}

function stepOk(step: string, ctx: JourneyContext): Effect[] {
  return ctx.isPopup ? [{ kind: 'opener', message: { step, result: 'OK', uuid: ctx.uuidUser ?? '' } }] : [];
}

/**
 * Spec §4 "Cancel" and "Failure reporting": SI records an incomplete event (status INCOMPLETED),
 * tells the opener (type PROCESS, error_text) and closes the popup, or after 300 ms returns to the
 * grantor route, or to /pdf_token when the cancelled route is the link flow's video.
 */
function cancellation(step: StepId, ctx: JourneyContext, ruta?: string | null, reason: string = errorTexts.cancelled): Transition {
  const effects: Effect[] = [{ kind: 'lifecycle', step, status: 'INCOMPLETED', description: reason }];
  if (ctx.isPopup) {
    effects.push(
      {
        kind: 'opener',
        message: {
          step,
          result: 'INCOMPLETED',
          status: 'INCOMPLETED',
          type: 'PROCESS',
          error_text: reason,
          uuid: ctx.uuidUser ?? '',
        },
      },
      { kind: 'closeWindow' },
    );
  }
  // The link flow's token page keeps its transaction (the link names it); the main flow's is over.
  if (ruta !== 'pdf_video_token') effects.push({ kind: 'forgetJourney' });
  const route = ruta === 'pdf_video_token' ? tokenPageRoute(ctx) : entryRoute(ctx);
  return go(route, delays.afterConfirmation, { effects });
}

/** Spec §2 "From the ID-capture side": clause, else authorization, else the face video. */
function consentAfterId(ctx: JourneyContext): string {
  if (paramEnabled(ctx.params, 'ENABLE_CONSENTIMIENTO_2')) return '/clausula';
  if (paramEnabled(ctx.params, 'ENABLE_CONSENTIMIENTO_3')) return '/autorizacion_solicitud';
  return '/video_token';
}

type Handlers = { [S in StepId]: (event: StepEvents[S], ctx: JourneyContext) => Transition | null };

const handlers: Handlers = {
  inicio(event, ctx) {
    switch (event.type) {
      case 'enter':
        return ctx.isPopup ? { route: null, delayMs: 0, effects: stepOk('inicio_page', ctx) } : null;
      case 'start':
        return go(paramEnabled(ctx.params, 'ENABLE_CONSENTIMIENTO_1') ? '/terminos' : '/preparacion_identificacion', delays.afterStart, {
          effects: [{ kind: 'lifecycle', step: 'inicio', status: 'OK', description: 'Inicio' }, ...stepOk('inicio', ctx)],
        });
      case 'help':
        return go(`/ayuda/${encodeURIComponent(ctx.apikey ?? '')}`);
    }
  },

  terminos(event, ctx) {
    switch (event.type) {
      case 'enter':
        return paramEnabled(ctx.params, 'REQ_ACEPTACION_DE_DATOS') ? null : go('/preparacion_identificacion', 0, { replace: true });
      case 'accept':
        return go('/preparacion_identificacion', delays.afterCheckboxAcceptance, {
          effects: [
            { kind: 'audit', paso: 'terminos', tipo: 'Aceptación', dato: JSON.stringify(event.acceptance) },
            { kind: 'userDatum', description: 'terms_acepted', value: 'true' },
            { kind: 'lifecycle', step: 'terminos', status: 'OK', description: 'Aceptación de términos' },
            ...stepOk('terminos', ctx),
          ],
        });
    }
  },

  pasos_configuracion(_event, ctx) {
    return ctx.mediaRecorderSupported ? go('/preparacion_identificacion', 0, { replace: true }) : null;
  },

  preparacion_identificacion(event, ctx) {
    switch (event.type) {
      case 'capture':
        return go('/identificacion', 0, { state: { passport: false } });
      case 'cancelConfirmed':
        return cancellation('preparacion_identificacion', ctx, event.ruta);
    }
  },

  holograma(event) {
    switch (event.type) {
      case 'calibrated':
      case 'timedOut':
      // The browser cannot record the calibration video: the capture goes on without it.
      case 'skipped':
        return go('/identificacion', 0, { state: { passport: false } });
      case 'cancel':
        return go('/preparacion_identificacion');
    }
  },

  identificacion(event, ctx) {
    switch (event.type) {
      case 'frontRead':
        // A passport has no back: its front read is the whole capture. Other IDs go on to the back side.
        return event.passport ? go('/resultados_identificacion', delays.afterBackRead, { state: { passport: true }, effects: idCaptured(ctx) }) : null;
      case 'backRead':
        return go('/resultados_identificacion', delays.afterBackRead, { state: { passport: false }, effects: idCaptured(ctx) });
      case 'readFailed':
        // The tips screen; its 'Capturar nuevamente' comes back to the same side.
        return go('/error_pantalla', 0, { state: { side: event.side, passport: event.passport, message: event.message } });
      case 'attemptsExhausted':
        // Spec §4: "When front or back attempts reach the limit the 'Proceso no exitoso' screen shows" (on this
        // screen); failure reporting: status FAIL, 'Finalizado por reintentos'; then completado is true.
        return { route: null, delayMs: 0, effects: processFailed('identificacion', ctx) };
      case 'acknowledgeFailure':
        return go(entryRoute(ctx));
      case 'cancel':
        return go('/preparacion_identificacion');
    }
  },

  error_pantalla(event) {
    switch (event.type) {
      case 'recapture':
        return go('/identificacion', 0, {
          state: { passport: event.passport, side: event.side ?? 'front', retry: true },
        });
      case 'cancel':
        return go('/preparacion_identificacion');
    }
  },

  resultados_identificacion(event, ctx) {
    switch (event.type) {
      case 'confirmed': {
        // Fields the person typed instead of confirming what was read go to the server as an event (docs/flow.md §4).
        const typed: Effect[] = event.typed?.length
          ? [{ kind: 'lifecycle', step: 'resultados_identificacion', status: 'OK', description: `Datos escritos por la persona: ${event.typed.join(', ')}` }]
          : [];
        // REQ_COMPROBANTE_DOMICILIO (project): the proof of address is captured before the address form, which it
        // pre-fills (docs/decisions.md).
        return go(
          paramEnabled(ctx.params, 'VARIANTE_DNI') ? consentAfterId(ctx) : paramEnabled(ctx.params, 'REQ_COMPROBANTE_DOMICILIO') ? '/preparacion_comprobante' : '/identificacion_edit',
          delays.afterConfirmation,
          { effects: [...typed, ...stepOk('resultados_identificacion', ctx)] },
        );
      }
      case 'recapture':
        return go('/identificacion', 0, { state: { passport: event.passport } });
      case 'terminate':
        return cancellation('resultados_identificacion', ctx, null, errorTexts.invalidValidityReason);
    }
  },

  datos_direccion_ocr_page(_event, ctx) {
    // The spec's "else /finalizado" would skip the face video; its main sequence and the journey
    // (address → clause → authorization → video token → result) put the video before the end (docs/decisions.md).
    return go(consentAfterId(ctx), delays.afterConfirmation, { effects: stepOk('datos_direccion_ocr_page', ctx) });
  },

  clausula(event, ctx) {
    switch (event.type) {
      case 'enter':
        return paramEnabled(ctx.params, 'REQ_MEDIOS_ELECTRONICOS') ? null : go('/autorizacion_solicitud', 0, { replace: true });
      case 'read':
        return go('/validacion_documento');
      case 'cancelConfirmed':
        return cancellation('clausula', ctx, event.ruta);
    }
  },

  validacion_documento(event, ctx) {
    if (event.type === 'acknowledgeLockout') return go(entryRoute(ctx));
    return go(paramEnabled(ctx.params, 'ENABLE_CONSENTIMIENTO_3') ? '/autorizacion_solicitud' : '/video_token', delays.afterCheckboxAcceptance, {
      effects: [
        { kind: 'audit', paso: 'clausula', tipo: 'Aceptación', dato: JSON.stringify(event.acceptance) },
        { kind: 'userDatum', description: 'req_elec_acepted', value: 'true' },
        { kind: 'lifecycle', step: 'clausula', status: 'OK', description: 'Aceptación de cláusula' },
        ...stepOk('clausula', ctx),
      ],
    });
  },

  autorizacion_solicitud(event, ctx) {
    switch (event.type) {
      case 'read':
        return go('/autorizacion_documento');
      case 'cancelConfirmed':
        return cancellation('autorizacion_solicitud', ctx, event.ruta);
    }
  },

  autorizacion_documento(event, ctx) {
    if (event.type === 'acknowledgeLockout') return go(entryRoute(ctx));
    // Spec §2 says /finalizado, but its main sequence (and the journey) has the face video after the
    // authorization: the video token comes next, and /finalizado follows the face match (docs/decisions.md).
    return go('/video_token', delays.afterCheckboxAcceptance, {
      effects: [
        { kind: 'audit', paso: 'autorizacion', tipo: 'Aceptación', dato: JSON.stringify(event.acceptance) },
        { kind: 'userDatum', description: 'request_report_acepted', value: 'true' },
        { kind: 'lifecycle', step: 'autorizacion', status: 'OK', description: 'Aceptación de autorización' },
        ...stepOk('autorizacion', ctx),
      ],
    });
  },

  video_token(event, ctx) {
    switch (event.type) {
      case 'matched':
        return go(paramEnabled(ctx.params, 'ENABLE_CONSULTA_HISTORIAL') ? '/consulta_historial' : '/finalizado', delays.afterFaceMatch, { effects: stepOk('video_token', ctx) });
      case 'abandon':
        return abandon('video_token', ctx);
      case 'cancelConfirmed':
        return cancellation('video_token', ctx, event.ruta);
      case 'recorderUnsupported':
        return go('/pasos_configuracion', 0, { replace: true });
      case 'attemptsExhausted':
        return { route: null, delayMs: 0, effects: processFailed('video_token', ctx) };
      case 'acknowledgeFailure':
        return go(entryRoute(ctx));
    }
  },

  pdf_video_token(event, ctx) {
    switch (event.type) {
      case 'matched':
        return go('/pdf_token_result', delays.afterFaceMatch);
      case 'abandon':
        return abandon('pdf_video_token', ctx);
      case 'cancelConfirmed':
        return cancellation('pdf_video_token', ctx, event.ruta ?? 'pdf_video_token');
      case 'recorderUnsupported':
        return go('/pasos_configuracion', 0, { replace: true });
      case 'attemptsExhausted':
        return { route: null, delayMs: 0, effects: processFailed('pdf_video_token', ctx) };
      case 'acknowledgeFailure':
        // The link flow has no grantor route: back to its token page (which shows the link's state).
        return go(tokenPageRoute(ctx));
      case 'restartLink':
        return go(linkRestartRoute(ctx));
    }
  },

  preparacion_comprobante(event, ctx) {
    switch (event.type) {
      case 'capture':
        return go('/comprobante', 0, event.ruta ? { state: { ruta: event.ruta } } : {});
      case 'cancelConfirmed':
        return cancellation('preparacion_comprobante', ctx, event.ruta);
    }
  },

  comprobante(event, ctx) {
    switch (event.type) {
      case 'read':
        // The address form opens pre-filled with what was read from the proof.
        return go('/identificacion_edit', delays.afterConfirmation, {
          state: { lectura: event.lectura },
          effects: [{ kind: 'lifecycle', step: 'comprobante', status: 'OK', description: 'Comprobante de domicilio' }, ...stepOk('comprobante', ctx)],
        });
      case 'attemptsExhausted':
        // The final screen shows on this route; the failure is reported as for the ID capture.
        return { route: null, delayMs: 0, effects: processFailed('comprobante', ctx) };
      case 'acknowledge':
        return go(entryRoute(ctx));
      case 'cancelConfirmed':
        return cancellation('comprobante', ctx, event.ruta);
    }
  },

  consulta_historial(event, ctx) {
    switch (event.type) {
      // Recorded like /terminos: the audit event holds the version and the SHA-256 of the text accepted.
      case 'accept':
        return go('/validar_movil', delays.afterCheckboxAcceptance, {
          effects: [
            { kind: 'audit', paso: 'consulta_historial', tipo: 'Aceptación', dato: JSON.stringify(event.acceptance) },
            { kind: 'lifecycle', step: 'consulta_historial', status: 'OK', description: 'Aceptación de consulta de historial crediticio' },
            ...stepOk('consulta_historial', ctx),
          ],
        });
      case 'cancelConfirmed':
        return cancellation('consulta_historial', ctx, event.ruta);
    }
  },

  validar_movil(event, ctx) {
    switch (event.type) {
      case 'sent':
        return go('/validar_sms', 0, { state: { phone: event.phone }, effects: stepOk('validar_movil', ctx) });
      case 'cancelConfirmed':
        return cancellation('validar_movil', ctx, event.ruta);
    }
  },

  validar_sms(event, ctx) {
    switch (event.type) {
      case 'verified':
        if (ctx.isPopup) {
          return go('/finalizado', delays.popupCloseAfterSms, {
            effects: [
              {
                kind: 'opener',
                message: {
                  step: 'completed',
                  result: 'FAIL',
                  data: { number_phone: event.phone },
                  type: 'PROCESS',
                  error_text: smsOpenerText,
                  uuid: ctx.uuidUser ?? '',
                  transaccion: ctx.uuidTrx ?? '',
                },
              },
              { kind: 'closeWindow' },
            ],
          });
        }
        return go('/finalizado', delays.afterSmsSuccess);
      // Reached without a number (a bookmark, a new tab): the number comes first.
      case 'missingPhone':
        return go('/validar_movil', 0, { replace: true });
      case 'cancelConfirmed':
        return cancellation('validar_sms', ctx, event.ruta);
    }
  },

  pdf_token(event, ctx) {
    switch (event.type) {
      case 'enter': {
        const expiry = Number(ctx.fechavigencia);
        return ctx.fechavigencia && Number.isFinite(expiry) && ctx.now > expiry ? go('/pdf_token_error', 0, { replace: true }) : null;
      }
      case 'continue':
        return go('/pdf_video_token');
      case 'linkRefused':
        // Its own screen at once, before any camera step; Back does not return to a dead link (issue #21).
        return go('/pdf_token_error', 0, { replace: true, state: { reason: event.reason } });
    }
  },

  pdf_token_result() {
    return go('/pdf_video_token');
  },

  finalizado(event, ctx) {
    switch (event.type) {
      case 'sent':
        if (ctx.isPopup) {
          return go(entryRoute(ctx), delays.popupClose, {
            effects: [
              {
                kind: 'opener',
                message: {
                  step: 'completed',
                  result: event.result,
                  uuid: ctx.uuidUser ?? '',
                  transaccion: ctx.uuidTrx ?? '',
                  // Spec §4: "One grantor key puts the full result in the opener message" — a grantor parameter here.
                  ...(event.data !== undefined && paramEnabled(ctx.params, 'RESULTADO_COMPLETO_OPENER') ? { data: event.data } : {}),
                },
              },
              { kind: 'closeWindow' },
            ],
          });
        }
        return go(entryRoute(ctx), delays.afterConfirmation);
      case 'continue':
        return go(entryRoute(ctx), delays.afterConfirmation);
      case 'acknowledge':
        return go(entryRoute(ctx));
    }
  },

  ayuda(event) {
    // resume: back on the entry route the journey goes on; it does not start over.
    return go(segment(event.ruta), 0, { state: { resume: true } });
  },

  cancelar_flujo(event, ctx) {
    switch (event.type) {
      case 'reopen':
        return go(segment(event.ruta));
      case 'restart':
        return go(entryRoute(ctx));
    }
  },
};

/** Spec §4 "Failure reporting" after a retry limit: FAIL with the process-failure text, opener told, completado true. */
function processFailed(step: StepId, ctx: JourneyContext): Effect[] {
  const effects: Effect[] = [{ kind: 'lifecycle', step, status: 'FAIL', description: errorTexts.processFailure }];
  if (ctx.isPopup) {
    effects.push({
      kind: 'opener',
      message: { step, result: 'FAIL', status: 'FAIL', type: 'PROCESS', error_text: errorTexts.processFailure, uuid: ctx.uuidUser ?? '' },
    });
  }
  effects.push({ kind: 'markCompleted' });
  // The attempts ran out: the lock holds in this browser too, until its hour ends (docs/flow.md §4 "Lockout").
  effects.push({ kind: 'lock' });
  return effects;
}

function idCaptured(ctx: JourneyContext): Effect[] {
  return [{ kind: 'lifecycle', step: 'identificacion', status: 'OK', description: 'Identificación capturada' }, ...stepOk('identificacion', ctx)];
}

/** Spec §2: the cancel link of the face video's error dialog goes to /cancelar_flujo/{route}. */
function abandon(step: 'video_token' | 'pdf_video_token', ctx: JourneyContext): Transition {
  const effects: Effect[] = [{ kind: 'lifecycle', step, status: 'INCOMPLETED', description: errorTexts.cancelled }];
  if (ctx.isPopup) {
    effects.push({
      kind: 'opener',
      message: { step, result: 'INCOMPLETED', status: 'INCOMPLETED', type: 'PROCESS', error_text: errorTexts.cancelled, uuid: ctx.uuidUser ?? '' },
    });
  }
  return go(`/cancelar_flujo/${step}`, 0, { effects });
}

/**
 * Where the journey goes when `step` reports `event`: a pure function of the step, the event and the
 * context (grantor parameters and session facts). null means "stay on this screen".
 */
export function next<S extends StepId>(step: S, event: JourneyEvent<S>, ctx: JourneyContext): Transition | null {
  // Each handler takes exactly its step's events; the signature of next() already ties step and event.
  const table = handlers as unknown as Record<StepId, (event: JourneyEvent, ctx: JourneyContext) => Transition | null>;
  return table[step](event, ctx);
}
