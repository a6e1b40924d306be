import { errorTexts } from '@kyc/contracts/texts';

/** Texts of /pdf_token_error (the result link expired or already consulted). */
export const texts = {
  title: 'Enlace vencido',
  lapsed: 'La vigencia de este enlace terminó el',
  lapsedNoDate: 'La vigencia de este enlace terminó.',
  help: 'Si necesitas consultar tu documento, comunícate con nosotros y menciona tu folio.',
  phone: 'Teléfono de ayuda',
  consumedTitle: errorTexts.linkConsumedTitle, // docs/flow.md §8
  consumed: errorTexts.linkConsumed, // docs/flow.md §8
} as const;
